import type { ModeratedContentType, ModerationDecisionAnswer, QueueEntryOf } from '@tapgram/shared';
import type { ReactNode } from 'react';

/** How the moderation queue shows one type of content, and speaks of a decision on it. */
interface ContentRenderer<T extends ModeratedContentType> {
  /** The item's picture, or what stands in for it. */
  media(item: QueueEntryOf<T>): ReactNode;
  /** Who wrote it and what it says (nothing when the content is gone). */
  summary(item: QueueEntryOf<T>): ReactNode;
  /** Where the content stands now, beside the item's figures ('' when there is nothing to say). */
  standing(item: QueueEntryOf<T>): string;
  /** What the decision did, for the toast. */
  outcome(answer: ModerationDecisionAnswer): string;
}

function placeholder(label: string) {
  return (
    <div className="flex h-32 w-32 shrink-0 items-center justify-center rounded-xl bg-slate-800 text-xs text-slate-400">
      {label}
    </div>
  );
}

const post: ContentRenderer<'post'> = {
  media: (item) =>
    item.post ? (
      <img
        src={item.post.thumbnailUrl}
        alt={item.post.caption}
        className="h-32 w-32 shrink-0 rounded-xl object-cover"
      />
    ) : (
      placeholder(item.contentType)
    ),
  summary: (item) =>
    item.post && (
      <p>
        <span className="font-bold">@{item.post.username}</span> {item.post.caption}
      </p>
    ),
  standing: (item) => (item.post?.status === 'held' ? 'held from listings' : ''),
  outcome: ({ decision, previousPostStatus }) => {
    if (decision === 'rejected') return 'The post was removed from LOLGram.';
    return previousPostStatus === 'held'
      ? 'The post is visible again.'
      : 'The post stays on LOLGram.';
  },
};

const comment: ContentRenderer<'comment'> = {
  media: (item) =>
    item.comment ? (
      <a href={`/lolgram/p/${item.comment.postId}`} className="shrink-0" title="Open the post">
        <img
          src={item.comment.postThumbnailUrl}
          alt={`The post: ${item.comment.postCaption}`}
          className="h-32 w-32 rounded-xl object-cover"
        />
      </a>
    ) : (
      placeholder(item.contentType)
    ),
  summary: (item) =>
    item.comment && (
      <div className="space-y-1">
        <p className="text-xs uppercase tracking-wide text-slate-400">Comment</p>
        <p>
          <span className="font-bold">@{item.comment.username}</span> {item.comment.text}
        </p>
        <p className="text-xs text-slate-400">On the post: {item.comment.postCaption}</p>
      </div>
    ),
  standing: (item) => (item.comment?.status === 'held' ? 'held from its thread' : ''),
  outcome: ({ decision, previousStatus }) => {
    if (decision === 'rejected') return 'The comment was removed from its thread.';
    return previousStatus === 'held'
      ? 'The comment is visible now.'
      : 'The comment stays in its thread.';
  },
};

/** Every content type the server moderates has its renderer here (the compiler checks it). */
const renderers: { [T in ModeratedContentType]: ContentRenderer<T> } = { post, comment };

/** The renderer of a queue item's content type. */
export function rendererOf<T extends ModeratedContentType>(item: QueueEntryOf<T>) {
  return renderers[item.contentType as T] as ContentRenderer<T>;
}
