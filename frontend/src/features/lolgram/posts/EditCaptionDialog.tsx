import {
  CAPTION_MAX_LENGTH,
  editPostBodySchema,
  firstIssueMessage,
  type Post,
} from '@tapgram/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { CountedTextarea } from '../../../components/ui/counted-textarea';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { toast } from '../../../hooks/use-toast';
import { serverError } from '../../../lib/server-error';
import { useEditCaption } from './useOwnPost';

function EditCaptionForm({ post, onDone }: { post: Post; onDone: () => void }) {
  const [caption, setCaption] = useState(post.caption);
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const edit = useEditCaption(post);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The rules of a new post's caption, checked here first and by the server again.
    const parsed = editPostBodySchema.safeParse({ caption });
    if (!parsed.success) {
      setProblem(firstIssueMessage(parsed.error));
      return;
    }
    try {
      const updated = await edit.mutateAsync(parsed.data);
      // While it is checked the card says so, and the check's outcome is told when it arrives.
      if (!updated.editModeration) toast({ title: 'Caption updated' });
      onDone();
    } catch (error) {
      setProblem(serverError(error, 'Failed to update the caption'));
    }
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <CountedTextarea
        label="Caption"
        value={caption}
        rows={4}
        maxLength={CAPTION_MAX_LENGTH}
        problemId={problem ? problemId : undefined}
        onValueChange={(value) => {
          setCaption(value);
          setProblem(null);
        }}
      />
      {problem && (
        <p id={problemId} role="alert" className="text-sm text-red-400">
          {problem}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={edit.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={edit.isPending}>
          {edit.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** The author changes a post's caption; closing the dialog drops what was typed. */
export function EditCaptionDialog({
  post,
  open,
  onOpenChange,
}: {
  post: Post;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit caption</DialogTitle>
          <DialogDescription>
            Everyone sees the new caption once it is checked; until then, the one before it.
          </DialogDescription>
        </DialogHeader>
        <EditCaptionForm post={post} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
