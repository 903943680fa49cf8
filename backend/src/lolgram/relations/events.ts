export {};

declare module '../../core/events' {
  interface DomainEvents {
    /** `followerId` now follows `userId` (a follow really added: not a repeated one). */
    'follow.added': { followerId: string; userId: string };
    /** `followerId` no longer follows `userId` (a follow really removed: an unfollow, a block). */
    'follow.removed': { followerId: string; userId: string };
  }
}
