export {};

declare module '../../core/events' {
  interface DomainEvents {
    /** An operator froze a player, or unfroze one (only when that changed). */
    'player.frozen': { playerId: string; frozen: boolean };
  }
}
