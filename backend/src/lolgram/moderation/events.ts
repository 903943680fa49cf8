import type { ModeratedContentType, ModerationDecision } from '@tapgram/shared';

declare module '../../core/events' {
  interface DomainEvents {
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
