import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '@tapgram/shared';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { toast } from '../../../hooks/use-toast';
import { apiRequest } from '../../../lib/api';
import { serverError } from '../../../lib/server-error';

/** Sends a post (or one of its comments) to the moderators, with a reason. */
export function ReportDialog({
  postId,
  commentId,
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
} & ({ postId: string; commentId?: undefined } | { commentId: string; postId?: undefined })) {
  const what = commentId ? 'comment' : 'post';
  const path = commentId
    ? `/api/lolgram/comments/${encodeURIComponent(commentId)}/report`
    : `/api/lolgram/posts/${postId}/report`;
  const [reason, setReason] = useState<ReportReason>(REPORT_REASONS[0]);
  const [details, setDetails] = useState('');
  const [sending, setSending] = useState(false);
  const send = async () => {
    setSending(true);
    try {
      const body = details.trim() ? { reason, details: details.trim() } : { reason };
      await apiRequest('POST', path, body);
      toast({
        title: 'Thanks for reporting',
        description: `A moderator will review this ${what}.`,
      });
      setDetails('');
      onOpenChange(false);
    } catch (error) {
      toast({
        title: 'Error',
        description: serverError(error, `Failed to report ${what}`),
        variant: 'destructive',
      });
    } finally {
      setSending(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Report this {what}</DialogTitle>
          <DialogDescription>Why should a moderator look at it?</DialogDescription>
        </DialogHeader>
        <fieldset className="grid gap-2">
          <legend className="sr-only">Reason</legend>
          {REPORT_REASONS.map((option) => (
            <label
              key={option}
              className="flex items-center gap-3 rounded-xl bg-slate-800/60 px-3 py-2 capitalize"
            >
              <input
                type="radio"
                name="reason"
                value={option}
                checked={reason === option}
                onChange={() => setReason(option)}
              />
              {option}
            </label>
          ))}
        </fieldset>
        <label className="grid gap-1.5 text-sm font-medium">
          Anything a moderator should know? (optional)
          <textarea
            value={details}
            maxLength={REPORT_DETAILS_MAX}
            rows={3}
            onChange={(event) => setDetails(event.target.value)}
            className="rounded-xl border border-slate-700 bg-slate-900 px-3 py-2 text-sm text-slate-100 focus-visible:outline-2 focus-visible:outline-amber-300"
          />
          <span className="text-right text-xs text-slate-400">
            {details.length}/{REPORT_DETAILS_MAX}
          </span>
        </label>
        <DialogFooter>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void send()} disabled={sending}>
            {sending ? 'Reporting...' : 'Report'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
