import { ForbiddenError } from '../../core/errors';

/**
 * A player's friends, invitations and bonuses are theirs alone: only the browser that plays as
 * them (its signed player cookie) reads or changes them.
 */
export function actingAs(player: string | null, userId: string): void {
  if (!player) throw new ForbiddenError('This browser has not created this player');
  if (player !== userId) throw new ForbiddenError('This browser plays as another player');
}
