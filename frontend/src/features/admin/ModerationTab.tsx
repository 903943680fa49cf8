import {
  moderationNotes,
  type ModerationDecision,
  type ModerationQueueEntry,
} from '@tapgram/shared';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { toast } from '../../hooks/use-toast';
import { focusWhenReady } from '../../lib/focus-when-ready';
import { CommentWaves } from './CommentWaves';
import { rendererOf } from './moderated-content';
import { useModerate, useModerationQueue } from './queries';

const QUEUE_EMPTY = 'moderation-queue-empty';
const queueItem = (id: string) =>
  document.querySelector<HTMLElement>(`[data-queue-id="${CSS.escape(id)}"]`);

function QueueItem({ item }: { item: ModerationQueueEntry }) {
  const moderate = useModerate();
  const content = rendererOf(item);
  const standing = content.standing(item);
  const [confirmReject, setConfirmReject] = useState(false);
  const send = async (decision: ModerationDecision) => {
    // What comes next in the queue: the item below, else the one above, else the empty queue.
    const card = queueItem(item.id);
    const li = card?.closest('li');
    const neighbour = (li?.nextElementSibling ?? li?.previousElementSibling)
      ?.querySelector('[data-queue-id]')
      ?.getAttribute('data-queue-id');
    const answer = await moderate.mutateAsync({
      queueId: item.id,
      decision,
      notes: moderationNotes[decision],
    });
    toast({
      title: decision === 'approved' ? 'Content approved' : 'Content rejected',
      description: content.outcome(answer),
    });
    // Once the decided item has left the list (it is read again), not before.
    focusWhenReady(() => {
      if (queueItem(item.id)) return null;
      return (neighbour ? queueItem(neighbour) : null) ?? document.getElementById(QUEUE_EMPTY);
    }, card);
  };
  const approve = async () => {
    try {
      await send('approved');
    } catch (error) {
      console.error('Moderation failed', error);
      toast({ title: 'Error', description: 'Failed to moderate content', variant: 'destructive' });
    }
  };
  return (
    <Card
      className="flex flex-col gap-4 sm:flex-row"
      data-testid="queue-item"
      data-queue-id={item.id}
      role="group"
      aria-label={`Queue item: ${content.noun}`}
      // Focusable by script only: the focus lands here when the item before it is decided.
      tabIndex={-1}
    >
      {content.media(item)}
      <div className="min-w-0 flex-1 space-y-1 text-sm wrap-anywhere">
        {content.summary(item)}
        <p className="text-slate-300">{item.reason}</p>
        <p className="text-slate-400">
          AI score{' '}
          <span className="font-bold text-amber-200">{Number(item.aiScore).toFixed(2)}</span> ·{' '}
          {item.reportCount} {item.reportCount === 1 ? 'report' : 'reports'} ·{' '}
          {standing ? `${standing} · ` : ''}
          <time dateTime={item.createdAt}>{new Date(item.createdAt).toLocaleString()}</time>
        </p>
      </div>
      <div className="flex gap-2 sm:flex-col">
        <Button onClick={() => void approve()} disabled={moderate.isPending}>
          <Check className="h-4 w-4" /> Approve
        </Button>
        <Button
          variant="destructive"
          onClick={() => setConfirmReject(true)}
          disabled={moderate.isPending}
        >
          <X className="h-4 w-4" /> Reject
        </Button>
      </div>
      <ConfirmDialog
        open={confirmReject}
        onOpenChange={setConfirmReject}
        title={`Reject this ${content.noun}?`}
        description={content.rejection}
        confirmLabel="Reject"
        workingLabel="Rejecting..."
        failure={() => 'Failed to moderate content'}
        onConfirm={() => send('rejected')}
      />
    </Card>
  );
}

export function ModerationTab() {
  return (
    <div className="space-y-10">
      <ModerationQueue />
      <CommentWaves />
    </div>
  );
}

function ModerationQueue() {
  const queue = useModerationQueue();
  if (queue.isPending) return <Skeleton className="h-40" />;
  if (queue.isError) return <p className="text-red-400">Failed to fetch moderation queue</p>;
  if (queue.data.length === 0) {
    return (
      <p id={QUEUE_EMPTY} tabIndex={-1} className="py-12 text-center text-slate-400">
        Nothing to review: the queue is empty.
      </p>
    );
  }
  return (
    <ul className="space-y-3">
      {queue.data.map((item) => (
        <li key={item.id}>
          <QueueItem item={item} />
        </li>
      ))}
    </ul>
  );
}
