import {
  MILESTONE_POINTS,
  type GameSession,
  type GameUser,
  type LeaderboardCountry,
  type LeaderboardUser,
  type MilestoneResponse,
} from '@tapgram/shared';
import { ForbiddenError, NotFoundError, TooManyRequestsError } from '../core/errors';
import type { GameStore } from './store';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FOREIGN_KEY_VIOLATION = '23503';

export interface TapAccepted {
  accepted: number;
  user: GameUser;
  session: GameSession;
}

export interface LeaderboardSnapshot {
  users: LeaderboardUser[];
  countries: LeaderboardCountry[];
  milestone: MilestoneResponse;
}

/** The game's rules: who may act for a player, and what a tap does. */
export class GameService {
  constructor(private readonly store: GameStore) {}

  createUser(username: string, country: string): Promise<GameUser> {
    return this.store.createUser(username, country);
  }

  async getUser(id: string): Promise<GameUser> {
    const user = UUID.test(id) ? await this.store.getUser(id) : null;
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  async rank(id: string): Promise<number> {
    const rank = UUID.test(id) ? await this.store.rank(id) : null;
    if (rank === null) throw new NotFoundError('User not found');
    return rank;
  }

  async createSession(player: string | null, userId: string): Promise<GameSession> {
    assertPlayer(player, userId);
    try {
      return await this.store.createSession(userId);
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) {
        throw new NotFoundError('User not found');
      }
      throw error;
    }
  }

  /**
   * Counts the player's batch of `count` taps whole, or refuses it (429) when the rate does not
   * allow all of it. A re-sent batch (`seq` not above the last counted) answers without counting.
   */
  async tap(
    player: string | null,
    userId: string,
    sessionId: string,
    count: number,
    seq?: number,
  ): Promise<TapAccepted> {
    assertPlayer(player, userId);
    const outcome = await this.store.tap(userId, sessionId, count, seq);
    switch (outcome.kind) {
      case 'ok':
        return { accepted: outcome.accepted, user: outcome.user, session: outcome.session };
      case 'no-session':
        throw new NotFoundError('Session not found');
      case 'not-owner':
        throw new ForbiddenError('This session belongs to another player');
      case 'rate-limited':
        throw new TooManyRequestsError('Tapping too fast: slow down a little');
    }
  }

  topUsers(limit: number) {
    return this.store.topUsers(limit);
  }

  topCountries() {
    return this.store.topCountries();
  }

  async milestone(): Promise<MilestoneResponse> {
    return { usersOver100k: await this.store.usersOver(MILESTONE_POINTS) };
  }

  async snapshot(limit: number): Promise<LeaderboardSnapshot> {
    const [users, countries, milestone] = await Promise.all([
      this.topUsers(limit),
      this.topCountries(),
      this.milestone(),
    ]);
    return { users, countries, milestone };
  }
}

function assertPlayer(player: string | null, userId: string): void {
  if (!player) throw new ForbiddenError('This browser has not created this player');
  if (player !== userId) throw new ForbiddenError('This browser plays as another player');
}
