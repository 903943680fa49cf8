declare module '../../core/events' {
  interface DomainEvents {
    /** A comment was written; it is 'checking' (only its author sees it) until its check ends. */
    'comment.created': { commentId: string; postId: string; authorId: string };
    /** Its author or the post's deleted a comment: moderation closes its open queue items. */
    'comment.deleted': { commentId: string; postId: string };
    /**
     * A comment left its post's thread for everyone (deleted, or removed by a moderator), or a
     * post's comments were turned off or on: each node drops its copy of the feed's first page.
     */
    'comment.changed': { postId: string };
    /**
     * A comment became visible for the first time: written and not held by the automatic check,
     * or approved by a moderator after it was held. `parentId` and `parentAuthorId` name the top
     * comment it replies to (null for a top comment).
     */
    'comment.added': {
      commentId: string;
      postId: string;
      postAuthorId: string;
      authorId: string;
      parentId: string | null;
      parentAuthorId: string | null;
    };
  }
}
export {};
