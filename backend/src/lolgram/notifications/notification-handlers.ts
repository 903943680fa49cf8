import type { EventBus } from '../../core/events';
import '../comments/events';
import '../moderation/events';
import '../posts/events';
import '../relations/events';
import type { NotificationsService } from './notifications-service';

/**
 * What users are told, from the domain events. Every handler runs once, on the node where the
 * event happened ('origin'): the row is written once, and the push goes to the user's room, which
 * the live channel's adapter carries to whichever node holds their sockets. Nothing for one's own
 * actions, nor between users who blocked one another (the repository checks both).
 */
export function handleNotificationEvents(events: EventBus, service: NotificationsService): void {
  events.on('lol.added', ({ postId, authorId, actorId }, delivery) =>
    service.notify(
      {
        userId: authorId,
        kind: 'lol',
        groupKey: postId,
        postId,
        commentId: null,
        actorId,
      },
      delivery,
    ),
  );

  events.on('follow.added', ({ followerId, userId }, delivery) =>
    service.notify(
      {
        userId,
        kind: 'follow',
        groupKey: '',
        postId: null,
        commentId: null,
        actorId: followerId,
      },
      delivery,
    ),
  );

  // An unfollow takes its follower out of the "started following you" they were named in: a
  // notification of a follow that is gone would tell what is no longer true.
  events.on('follow.removed', ({ followerId, userId }, delivery) =>
    service.withdrawFollow(userId, followerId, delivery),
  );

  // A reply tells the author of the comment it answers; a comment (or a reply to someone else's
  // comment) tells the post's author: one notification each, never two for the same comment.
  events.on(
    'comment.added',
    async ({ commentId, postId, postAuthorId, authorId, parentId, parentAuthorId }, delivery) => {
      if (parentId && parentAuthorId) {
        await service.notify(
          {
            userId: parentAuthorId,
            kind: 'reply',
            groupKey: parentId,
            postId,
            commentId,
            actorId: authorId,
          },
          delivery,
        );
      }
      if (postAuthorId !== parentAuthorId) {
        await service.notify(
          {
            userId: postAuthorId,
            kind: 'comment',
            groupKey: postId,
            postId,
            commentId,
            actorId: authorId,
          },
          delivery,
        );
      }
    },
  );

  // The author hears how moderation went for their post or comment (nobody is named): held for a
  // moderator, approved after that, or removed.
  events.on(
    'moderation.moved',
    ({ contentType, contentId, authorId, postId, was, now, edit }, delivery) => {
      const outcome =
        now === 'held'
          ? 'held'
          : now === 'rejected'
            ? 'rejected'
            : now === 'visible' && (was === 'held' || was === 'rejected')
              ? 'approved'
              : null;
      // An edit's outcome shows on the post itself (the author reads it as "checking" or "held").
      if (!outcome || edit || contentType === 'post-edit') return;
      return service.notify(
        {
          userId: authorId,
          kind: `${contentType}-${outcome}`,
          groupKey: contentId,
          postId,
          commentId: contentType === 'comment' ? contentId : null,
          actorId: null,
        },
        delivery,
      );
    },
  );

  // Those who reported a post or a comment hear that it was removed, not who decided.
  events.on(
    'moderation.decided',
    async ({ contentType, contentId, postId, decision, reporterIds }, delivery) => {
      if (decision !== 'rejected') return;
      for (const reporterId of new Set(reporterIds)) {
        await service.notify(
          {
            userId: reporterId,
            kind: 'report-removed',
            groupKey: contentId,
            postId,
            commentId: contentType === 'comment' ? contentId : null,
            actorId: null,
          },
          delivery,
        );
      }
    },
  );
}
