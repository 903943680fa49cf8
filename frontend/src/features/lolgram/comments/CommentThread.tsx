import { COMMENT_MAX_LENGTH, type Comment, type Post } from '@tapgram/shared';
import { X } from 'lucide-react';
import { useId, useState, type RefObject } from 'react';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../hooks/use-toast';
import { serverError } from '../../../lib/server-error';
import { useAuth } from '../../auth';
import { LoadMoreButton } from '../ui/LoadMoreButton';
import { useLoginPrompt } from '../ui/login-prompt';
import { useAddComment, useCommentsOff, useThread } from './useComments';
import { pluralize } from '../lib/format';
import { CommentRow } from './CommentRow';

/**
 * A post's thread under it on its own page: the comments oldest first with their replies, the box
 * to comment or reply, and for the post's author the switch that turns comments off and on.
 */
export function CommentThread({
  post,
  boxRef,
}: {
  post: Post;
  boxRef: RefObject<HTMLTextAreaElement | null>;
}) {
  const { state } = useAuth();
  const thread = useThread(post.id);
  const add = useAddComment(post.id);
  const switchOff = useCommentsOff(post.id);
  const promptLogin = useLoginPrompt('Please login to comment');
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<Comment | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const headingId = useId();
  const isAuthor = state.user?.id === post.userId;
  const commentsOff = thread.data ? thread.commentsOff : post.commentsOff;
  const notPublic = post.moderation !== undefined;

  const reply = (comment: Comment) => {
    setReplyTo(comment);
    setProblem(null);
    boxRef.current?.focus();
  };
  const send = async () => {
    const trimmed = text.trim();
    if (!trimmed) {
      setProblem('Write a comment first');
      return;
    }
    setProblem(null);
    const sentTo = replyTo;
    try {
      await add.mutateAsync({ text: trimmed, ...(sentTo ? { parentId: sentTo.id } : {}) });
      // A reply chosen, or words typed, while it was being sent are the reader's next comment.
      setText((current) => (current === text ? '' : current));
      setReplyTo((current) => (current?.id === sentTo?.id ? null : current));
    } catch (error) {
      setProblem(serverError(error, 'Failed to post the comment'));
    }
  };
  const toggleComments = async () => {
    try {
      const answer = await switchOff.mutateAsync(!commentsOff);
      toast({ title: answer.commentsOff ? 'Comments turned off' : 'Comments turned on' });
    } catch (error) {
      toast({
        title: 'Error',
        description: serverError(error, 'Failed to change the comments'),
        variant: 'destructive',
      });
    }
  };

  return (
    <section aria-labelledby={headingId} className="grid gap-2 px-3 pt-4">
      {/* The heading takes the room it needs: on a narrow phone the author's switch goes under it. */}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-base font-bold">
          Comments
          <span className="ml-2 whitespace-nowrap text-sm font-normal text-slate-400">
            {pluralize(thread.commentCount ?? post.commentCount, 'comment')}
          </span>
        </h2>
        {isAuthor && !notPublic && (
          <Button
            variant="outline"
            onClick={() => void toggleComments()}
            disabled={switchOff.isPending}
          >
            {commentsOff ? 'Turn on commenting' : 'Turn off commenting'}
          </Button>
        )}
      </div>

      {thread.isPending && (
        <div role="status" aria-label="Loading comments" className="grid gap-2">
          <Skeleton className="h-10 w-3/4" />
          <Skeleton className="h-10 w-2/3" />
        </div>
      )}
      {thread.isError && (
        <div role="alert" className="flex items-center gap-3 text-sm text-red-400">
          Failed to load comments
          <Button variant="outline" onClick={() => void thread.refetch()}>
            Retry
          </Button>
        </div>
      )}
      {thread.isSuccess && thread.comments.length === 0 && (
        <p className="py-3 text-sm text-slate-400">
          {commentsOff
            ? 'Comments are turned off for this post.'
            : 'No comments yet. Be the first!'}
        </p>
      )}
      {thread.comments.length > 0 && (
        <ul className="grid">
          {thread.comments.map((comment) => (
            <CommentRow
              key={comment.id}
              comment={comment}
              postId={post.id}
              postAuthorId={post.userId}
              onReply={reply}
              canReply={!commentsOff && Boolean(state.isAuthenticated)}
            />
          ))}
        </ul>
      )}
      <LoadMoreButton pages={thread} className="justify-self-center" />

      {commentsOff && thread.comments.length > 0 && (
        <p className="text-sm text-slate-400">Comments are turned off for this post.</p>
      )}
      {!commentsOff && !notPublic && state.isAuthenticated && (
        <form
          className="sticky bottom-0 grid gap-2 border-t border-slate-800 bg-slate-950 py-3"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          {replyTo && (
            <p className="flex items-center gap-2 text-xs text-slate-300">
              Replying to @{replyTo.username}
              <button
                type="button"
                onClick={() => setReplyTo(null)}
                aria-label="Cancel the reply"
                className="flex h-11 w-11 items-center justify-center rounded-full hover:bg-slate-800"
              >
                <X className="h-4 w-4" aria-hidden="true" />
              </button>
            </p>
          )}
          <div className="flex items-end gap-2">
            <label htmlFor={`${headingId}-box`} className="sr-only">
              {replyTo ? `Reply to @${replyTo.username}` : 'Add a comment'}
            </label>
            <textarea
              ref={boxRef}
              id={`${headingId}-box`}
              value={text}
              rows={1}
              maxLength={COMMENT_MAX_LENGTH}
              placeholder={replyTo ? `Reply to @${replyTo.username}…` : 'Add a comment…'}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? problemId : undefined}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={(event) => {
                // Enter sends, Shift+Enter starts a new line.
                if (event.key === 'Enter' && !event.shiftKey) {
                  event.preventDefault();
                  void send();
                }
              }}
              className="min-h-11 w-full min-w-0 flex-1 resize-none rounded-xl border border-slate-600 bg-slate-900 px-3 py-2 text-base text-slate-100 placeholder:text-slate-400 focus-visible:outline-2 focus-visible:outline-amber-300"
            />
            <Button type="submit" disabled={add.isPending} className="min-h-11 shrink-0">
              {add.isPending ? 'Posting…' : 'Post'}
            </Button>
          </div>
          {problem && (
            <p id={problemId} role="alert" className="text-sm text-red-400">
              {problem}
            </p>
          )}
        </form>
      )}
      {!commentsOff && !notPublic && !state.isAuthenticated && (
        <Button variant="outline" onClick={promptLogin} className="justify-self-start">
          Log in to comment
        </Button>
      )}
    </section>
  );
}
