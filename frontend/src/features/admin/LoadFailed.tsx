import { Button } from '../../components/ui/button';

/**
 * What a card shows when its figures could not be fetched, instead of loading forever; with
 * `onRetry`, a button to ask again.
 */
export function LoadFailed({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
      <p className="text-red-400">{message}</p>
      {onRetry && (
        <Button size="sm" variant="outline" onClick={onRetry}>
          Retry
        </Button>
      )}
    </div>
  );
}
