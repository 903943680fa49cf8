declare module '../../core/events' {
  interface DomainEvents {
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
