import type { ModeratedContentType, ModerationDecision } from '@tapgram/shared';

declare module '../../core/events' {
  interface DomainEvents {
    /**
     * Content of any type moved in moderation: its automatic check ended, or a moderator decided
     * (`was`, `now`: the content's statuses); `edit`: the content is an edit of other content's
     * text (a `post-edit`: shown, held, or dropped as `rejected`), whose post stayed where it was.
     */
    'moderation.moved': {
      contentType: ModeratedContentType;
      contentId: string;
      authorId: string;
      /** The post the content is, or is on; null for content that is not on a post. */
      postId: string | null;
      was: string;
      now: string;
      edit: boolean;
    };
    /**
     * A moderator decided a queue item, of any content type; `reporterIds` are the users whose
     * reports the item gathered (none when only the automatic check queued it).
     */
    'moderation.decided': {
      queueId: string;
      contentType: ModeratedContentType;
      contentId: string;
      /** The post the content is, or is on; null when that is not known (the content is gone). */
      postId: string | null;
      decision: ModerationDecision;
      moderatorId: string;
      reporterIds: string[];
    };
  }
}
