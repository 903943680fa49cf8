import {
  firstIssueMessage,
  PLAYER_ACTION_REASON_MAX,
  playerActionBodySchema,
  type PlayerDetail,
} from '@tapgram/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { CountedTextarea } from '../../components/ui/counted-textarea';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { toast } from '../../hooks/use-toast';
import { ApiError } from '../../lib/api';
import { usePlayerAction, type PlayerActionKind } from './player-queries';

const WORDING: Record<
  PlayerActionKind,
  { title: string; description: string; confirm: string; done: string; outcome: string }
> = {
  freeze: {
    title: 'Freeze',
    description:
      'Their taps will be refused and they leave the leaderboards, the country totals and the milestone count until unfrozen.',
    confirm: 'Freeze player',
    done: 'is frozen',
    outcome: 'Their taps are refused and they are off the leaderboards.',
  },
  unfreeze: {
    title: 'Unfreeze',
    description: 'Their taps count again and they come back on the leaderboards.',
    confirm: 'Unfreeze player',
    done: 'is unfrozen',
    outcome: 'Their taps count again and they are back on the leaderboards.',
  },
};

function ReasonForm({
  player,
  action,
  onDone,
}: {
  player: PlayerDetail;
  action: PlayerActionKind;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const act = usePlayerAction(player.id);
  const ids = { problem: useId() };
  const wording = WORDING[action];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = playerActionBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setProblem(firstIssueMessage(parsed.error));
      return;
    }
    try {
      await act.mutateAsync({ action, reason: parsed.data.reason });
      toast({ title: `@${player.username} ${wording.done}`, description: wording.outcome });
      onDone();
    } catch (error) {
      // The server's own words (already frozen, not an admin any more…), in the dialog.
      setProblem(error instanceof ApiError ? error.message : `Failed to ${action} the player`);
    }
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <CountedTextarea
        label="Reason"
        value={reason}
        rows={3}
        required
        maxLength={PLAYER_ACTION_REASON_MAX}
        placeholder={action === 'freeze' ? 'What the signals show' : 'Why the freeze is lifted'}
        problemId={problem ? ids.problem : undefined}
        onValueChange={(value) => {
          setReason(value);
          setProblem(null);
        }}
      />
      {problem && (
        <p id={ids.problem} role="alert" className="text-sm text-red-400">
          {problem}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={act.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant={action === 'freeze' ? 'destructive' : 'default'}
          disabled={act.isPending}
        >
          {act.isPending ? 'Saving…' : wording.confirm}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Asks the reason of a freeze or an unfreeze (the audit trail keeps it), then does it. */
export function FreezeDialog({
  player,
  action,
  open,
  onOpenChange,
}: {
  player: PlayerDetail;
  action: PlayerActionKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const wording = WORDING[action];
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {wording.title} @{player.username}?
          </DialogTitle>
          <DialogDescription>{wording.description}</DialogDescription>
        </DialogHeader>
        {/* A fresh form each time the dialog opens: no reason left over from the last one. */}
        {open && <ReasonForm player={player} action={action} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}
