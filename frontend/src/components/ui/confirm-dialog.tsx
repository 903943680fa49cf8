import { useId, useState, type ReactNode } from 'react';
import { Button } from './button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from './dialog';

/**
 * Asks before an action that cannot be taken back (deleting a post, blocking someone): Cancel,
 * or the action, which shows it is working and says why if it failed; the dialog closes once it
 * is done.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  workingLabel,
  onConfirm,
  failure,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  workingLabel: string;
  /** The action; the dialog closes when it resolves and stays open when it throws. */
  onConfirm: () => Promise<void>;
  /** What to say when the action failed. */
  failure: (error: unknown) => string;
}) {
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const change = (next: boolean) => {
    if (working) return;
    if (!next) setProblem(null);
    onOpenChange(next);
  };
  const confirm = async () => {
    setProblem(null);
    setWorking(true);
    try {
      await onConfirm();
      setWorking(false);
      onOpenChange(false);
    } catch (error) {
      setWorking(false);
      setProblem(failure(error));
    }
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent className="max-w-sm">
        {/* A long name in the title wraps rather than widening the dialog past a phone. */}
        <DialogHeader className="wrap-anywhere">
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {problem && (
          <p id={problemId} role="alert" className="text-sm text-red-400">
            {problem}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => change(false)} disabled={working}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => void confirm()}
            disabled={working}
            aria-describedby={problem ? problemId : undefined}
          >
            {working ? workingLabel : confirmLabel}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
