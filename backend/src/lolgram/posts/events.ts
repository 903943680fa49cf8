export {};

declare module '../../core/events' {
  interface DomainEvents {
    /**
     * Its author deleted a post: its rows and images are gone. Each node drops its copy of the
     * feed's first page; moderation closes the post's open queue items.
     */
    'post.deleted': { postId: string; authorId: string };
    /** Its author changed a post's caption. */
    'post.caption-changed': { postId: string; authorId: string };
  }
}
