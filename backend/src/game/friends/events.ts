export {};

declare module '../../core/events' {
  interface DomainEvents {
    /**
     * These players' friends, friend requests or invitations changed (a friendship, a request, an
     * invitation recorded, a referral bonus paid): their screens read them again.
     */
    'friends.changed': { playerIds: string[] };
  }
}
