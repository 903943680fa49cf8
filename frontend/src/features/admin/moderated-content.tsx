import type { ModeratedContentType, ModerationDecisionAnswer, QueueEntryOf } from '@tapgram/shared';
import type { ReactNode } from 'react';

/** How the moderation queue shows one type of content, and speaks of a decision on it. */
interface ContentRenderer<T extends ModeratedContentType> {
  /** What a moderator calls it ("Reject this …?"). */
  noun: string;
  /** What rejecting it does, said before a moderator confirms it. */
  rejection: string;
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
  noun: 'post',
  rejection: 'It is removed for good: a rejected post never comes back.',
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
  noun: 'comment',
  rejection: 'It is removed for good: a rejected comment never comes back.',
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

const postEdit: ContentRenderer<'post-edit'> = {
  noun: 'edit',
  rejection: 'The edit is dropped for good; the post keeps the caption shown now.',
  media: (item) => {
    const edit = item['post-edit'];
    return edit ? (
      <a href={`/lolgram/p/${item.contentId}`} className="shrink-0" title="Open the post">
        <img
          src={edit.thumbnailUrl}
          alt={`The post: ${edit.caption}`}
          className="h-32 w-32 rounded-xl object-cover"
        />
      </a>
    ) : (
      placeholder('post')
    );
  },
  summary: (item) => {
    const edit = item['post-edit'];
    return (
      edit && (
        <div className="space-y-1">
          <p className="text-xs uppercase tracking-wide text-slate-400">Edited caption</p>
          <p>
            <span className="font-bold">@{edit.username}</span>{' '}
            {edit.editedCaption ?? 'The edit is gone.'}
          </p>
          <p className="text-xs text-slate-400">Shown now: {edit.caption}</p>
        </div>
      )
    );
  },
  standing: (item) =>
    item['post-edit']?.status === 'held' ? 'edit held; the post keeps its caption' : '',
  outcome: ({ decision, previousStatus }) => {
    if (previousStatus !== 'held') return 'Nothing changed: no edit was waiting.';
    return decision === 'rejected'
      ? 'The edit was dropped; the post keeps its caption.'
      : 'The edited caption is shown now.';
  },
};

/** Every content type the server moderates has its renderer here (the compiler checks it). */
const renderers: { [T in ModeratedContentType]: ContentRenderer<T> } = {
  post,
  comment,
  'post-edit': postEdit,
};

/** The renderer of a queue item's content type. */
export function rendererOf<T extends ModeratedContentType>(item: QueueEntryOf<T>) {
  return renderers[item.contentType as T] as ContentRenderer<T>;
}
