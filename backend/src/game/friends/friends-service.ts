import {
  boardRanks,
  friendMessages,
  MAX_FRIENDS,
  MAX_PENDING_REQUESTS,
  seasonAt,
  type Friend,
  type FriendRequestAnswer,
  type Friends,
  type FriendsBoard,
  type FriendsBoardRow,
  type SeasonCalendar,
} from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors';
import type { EventBus } from '../../core/events';
import type { GameStore } from '../store';
import './events';
import { actingAs } from './acting-as';
import { FriendsRepository } from './friends-repository';

export type FriendsStore = Pick<GameStore, 'now' | 'scores'>;

/**
 * Friends (docs/GAME.md, Friends and invitations): an accepted invitation, or a request by name
 * that the other accepts, makes two players friends, both ways; either can end it. Each change
 * holds both players' locks, so that the bounds (MAX_FRIENDS, MAX_PENDING_REQUESTS) hold when two
 * requests race.
 */
export class FriendsService {
  private readonly pool: pg.Pool;
  private readonly repo: FriendsRepository;
  private readonly store: FriendsStore;
  private readonly calendar: SeasonCalendar;
  private readonly events?: EventBus;

  constructor(deps: {
    pool: pg.Pool;
    store: FriendsStore;
    calendar: SeasonCalendar;
    events?: EventBus;
  }) {
    this.pool = deps.pool;
    this.repo = new FriendsRepository(deps.pool);
    this.store = deps.store;
    this.calendar = deps.calendar;
    this.events = deps.events;
  }

  /** Tells both players' screens (their own sockets, on whichever node). */
  private changed(...playerIds: string[]): void {
    this.events?.emit('friends.changed', { playerIds });
  }

  async friends(player: string | null, userId: string): Promise<Friends> {
    actingAs(player, userId);
    const [friends, inviter, incoming, outgoing] = await Promise.all([
      this.repo.friends(userId),
      this.repo.inviterOf(userId),
      this.repo.incoming(userId),
      this.repo.outgoing(userId),
    ]);
    return { friends, inviter, incoming, outgoing };
  }

  /** Asks a player by name; when they had asked first, the two are friends at once. */
  async request(
    player: string | null,
    userId: string,
    username: string,
  ): Promise<FriendRequestAnswer> {
    actingAs(player, userId);
    const friend = await this.repo.playerByName(username);
    if (!friend) throw new NotFoundError(friendMessages.notFound);
    if (friend.id === userId) throw new ValidationError(friendMessages.self);
    const answer = await withTransaction(this.pool, async (tx): Promise<FriendRequestAnswer> => {
      const repo = this.repo.on(tx);
      await repo.lockPlayers(userId, friend.id);
      if (await repo.areFriends(userId, friend.id)) throw new ConflictError(friendMessages.already);
      if (await repo.hasRequest(friend.id, userId)) {
        await this.befriend(repo, userId, friend);
        return { status: 'friends', friend };
      }
      // Asked again (a retry): the same answer.
      if (await repo.hasRequest(userId, friend.id)) return { status: 'requested', friend };
      if ((await repo.pendingSent(userId)) >= MAX_PENDING_REQUESTS) {
        throw new ConflictError(friendMessages.tooManyRequests);
      }
      if ((await repo.friendCount(userId)) >= MAX_FRIENDS) {
        throw new ConflictError(friendMessages.tooManyFriends);
      }
      await repo.insertRequest(userId, friend.id);
      return { status: 'requested', friend };
    });
    this.changed(userId, friend.id);
    return answer;
  }

  /** Accepts the request `fromId` sent the player. */
  async accept(player: string | null, userId: string, fromId: string): Promise<Friends> {
    actingAs(player, userId);
    await withTransaction(this.pool, async (tx) => {
      const repo = this.repo.on(tx);
      await repo.lockPlayers(userId, fromId);
      if (!(await repo.hasRequest(fromId, userId))) {
        if (await repo.areFriends(userId, fromId)) return;
        throw new NotFoundError(friendMessages.noRequest);
      }
      await this.befriend(repo, userId, { id: fromId, username: '' });
    });
    this.changed(userId, fromId);
    return this.friends(player, userId);
  }

  /** Declines a request the player received, or withdraws one they sent. */
  async dropRequest(player: string | null, userId: string, otherId: string): Promise<Friends> {
    actingAs(player, userId);
    if (!(await this.repo.deleteRequest(userId, otherId))) {
      throw new NotFoundError(friendMessages.noRequest);
    }
    this.changed(userId, otherId);
    return this.friends(player, userId);
  }

  async remove(player: string | null, userId: string, friendId: string): Promise<Friends> {
    actingAs(player, userId);
    if (!(await this.repo.unfriend(userId, friendId))) {
      throw new NotFoundError(friendMessages.notFriends);
    }
    this.changed(userId, friendId);
    return this.friends(player, userId);
  }

  /**
   * The friends board: the player, their friends and whoever invited them, by the running
   * season's points as the store holds them (frozen players left out), ranked as every board is.
   */
  async board(player: string | null, userId: string): Promise<FriendsBoard> {
    actingAs(player, userId);
    const [friends, inviter, now] = await Promise.all([
      this.repo.friends(userId),
      this.repo.inviterOf(userId),
      this.store.now(),
    ]);
    const names = new Map<string, { username: string; relation: FriendsBoardRow['relation'] }>();
    for (const f of friends) names.set(f.id, { username: f.username, relation: 'friend' });
    if (inviter) names.set(inviter.id, { username: inviter.username, relation: 'inviter' });
    const me = await this.repo.nameOf(userId);
    if (me) names.set(userId, { username: me, relation: 'me' });
    const season = seasonAt(now, this.calendar);
    const scores = await this.store.scores(season, [...names.keys()]);
    const rows = [...scores]
      .map(([id, points]) => ({ id, points, ...names.get(id)! }))
      .sort((a, b) => b.points - a.points || a.username.localeCompare(b.username));
    const ranks = boardRanks(rows.map((row) => row.points));
    return { season, rows: rows.map((row, i) => ({ ...row, rank: ranks[i] })) };
  }

  private async befriend(repo: FriendsRepository, userId: string, friend: Friend): Promise<void> {
    if ((await repo.friendCount(userId)) >= MAX_FRIENDS) {
      throw new ConflictError(friendMessages.tooManyFriends);
    }
    if ((await repo.friendCount(friend.id)) >= MAX_FRIENDS) {
      throw new ConflictError(friendMessages.theirFriendsFull);
    }
    await repo.befriend(userId, friend.id);
  }
}
