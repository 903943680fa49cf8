/** What a card shows when its figures could not be fetched, instead of loading forever. */
export function LoadFailed({ message }: { message: string }) {
  return (
    <p role="alert" className="mt-2 text-sm text-red-400">
      {message}
    </p>
  );
}
