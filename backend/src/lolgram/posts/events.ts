import type { PostStatus } from '@tapgram/shared';

declare module '../../core/events' {
  interface DomainEvents {
    /** A post was written; it is 'checking' until moderation's automatic check ends. */
    'post.created': { postId: string; authorId: string };
    /** A post's status moved (its check ended, or a moderator decided). */
    'post.visibility-changed': {
      postId: string;
      authorId: string;
      was: PostStatus;
      now: PostStatus;
    };
    /** Someone LOLed a post (a LOL really added: not a repeated one). */
    'lol.added': { postId: string; authorId: string; actorId: string };
    /**
     * Its author deleted a post: its rows and images are gone. Each node drops its copy of the
     * feed's first page; moderation closes the post's open queue items.
     */
    'post.deleted': { postId: string; authorId: string };
    /**
     * Its author edited a post's caption: the edit waits, public nowhere but to them, until
     * moderation's automatic check ends.
     */
    'post.caption-edited': { postId: string; authorId: string };
    /** A post's public caption changed: an edit of it passed its check, or a moderator's look. */
    'post.caption-changed': { postId: string; authorId: string };
  }
}
