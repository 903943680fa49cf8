export {};

declare module '../core/events' {
  interface DomainEvents {
    /**
     * A sign-in session ended: signed out, or replaced by a new sign-in in the same browser.
     * `sessionId` is the session's id as stored (a digest of its token, never the token).
     */
    'session.ended': { userId: string; sessionId: string };
    /**
     * An account was deleted with everything it made (committed): each node drops what it keeps
     * of it (the feed's first page).
     */
    'account.deleted': { userId: string };
  }
}
