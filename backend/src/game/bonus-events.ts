import type { BonusGrant } from './store';

declare module '../core/events' {
  interface DomainEvents {
    /**
     * Bonuses that Postgres granted (a check-in claim, a referral's two sides) and that the Redis
     * store must still add to the players' points and boards. Recorded in the transaction that
     * writes their rows, so a node that dies before adding them leaves them to the next node.
     */
    'game.bonus-granted': { bonuses: BonusGrant[] };
  }
}
