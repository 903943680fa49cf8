export {};

declare module '../core/events' {
  interface DomainEvents {
    /**
     * A sign-in session ended: signed out, or replaced by a new sign-in in the same browser.
     * `sessionId` is the session's id as stored (a digest of its token, never the token).
     */
    'session.ended': { userId: string; sessionId: string };
  }
}
