import { commentMessages } from '@tapgram/shared';
import type { EventBus } from '../../core/events';
import '../comments/events';
import type {
  CommentMove,
  CommentStatus,
  CommentsRepository,
} from '../comments/comments-repository';
import type { ModeratedContent } from './content-types';
import { TextScorer } from './scoring';

/**
 * Comments as moderation sees them: checked by their text against the caption word list when
 * written, held from the thread or shown, removed when rejected; the dashboard shows their text
 * with the post they are on.
 */
export function moderatedComments({
  comments,
  events,
}: {
  comments: CommentsRepository;
  events: EventBus;
}): ModeratedContent<'comment', CommentStatus, CommentMove> {
  const scorer = new TextScorer('comment');
  return {
    type: 'comment',

    reports: {
      authorOf: (client, id, reporterId) => comments.readableAuthor(client, id, reporterId),
      words: {
        notFound: commentMessages.notFound,
        own: commentMessages.cannotReportOwn,
        repeated: commentMessages.alreadyReported,
      },
    },

    checkNew(check) {
      events.on('comment.created', ({ commentId }) => check(commentId));
    },

    async score(id) {
      const text = await comments.checkInput(id);
      return text === null ? null : scorer.score(text);
    },

    async finishCheck(client, { id, score, hold }) {
      const move = await comments.finishCheck(client, id, score, hold);
      return move?.was === 'checking' ? move : null;
    },

    unchecked: (until, limit, after) => comments.unchecked(until, limit, after),

    // Approving shows a held comment; rejecting removes it from its thread (never to come back).
    decide: (client, id, decision) =>
      decision === 'approved'
        ? comments.move(client, id, ['held'], 'visible')
        : comments.move(client, id, ['checking', 'visible', 'held'], 'rejected'),

    // A comment becomes visible once: after its check, or when a moderator approves it held.
    async announce(client, id, move) {
      if (move.now === 'visible') {
        await events.record(client, 'comment.added', {
          commentId: id,
          postId: move.postId,
          postAuthorId: move.postAuthorId,
          authorId: move.authorId,
          parentId: move.parentId,
          parentAuthorId: move.parentAuthorId,
        });
      }
      await events.record(client, 'comment.changed', { postId: move.postId });
    },

    previews: (ids) => comments.previews(ids),
  };
}
