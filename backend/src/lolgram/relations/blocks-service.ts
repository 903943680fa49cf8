import { messages, type BlockedUser, type BlockState } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import type { EventBus } from '../../core/events';
import { NotFoundError, ValidationError } from '../../core/errors';
import { isId } from '../../core/ids';
import { can, type UsersRepository, type UsersService, type Viewer } from '../../accounts';
import { parseCursor } from '../posts/post-cursor';
import type { BlocksRepository } from './blocks-repository';
import './events';
import type { FollowsRepository } from './follows-repository';

export interface BlocksServiceDeps {
  pool: pg.Pool;
  blocks: BlocksRepository;
  follows: FollowsRepository;
  users: UsersRepository;
  accounts: UsersService;
  events: EventBus;
}

/**
 * Blocking: one's own blocks only, never oneself. A block ends the follows between the two, both
 * ways, with their counts, in the transaction that adds it. It is private: the blocked user is
 * told nothing, and no call answers them whether someone blocked them.
 */
export class BlocksService {
  private readonly pool: pg.Pool;
  private readonly blocks: BlocksRepository;
  private readonly follows: FollowsRepository;
  private readonly users: UsersRepository;
  private readonly accounts: UsersService;
  private readonly events: EventBus;

  constructor({ pool, blocks, follows, users, accounts, events }: BlocksServiceDeps) {
    this.pool = pool;
    this.blocks = blocks;
    this.follows = follows;
    this.users = users;
    this.accounts = accounts;
    this.events = events;
  }

  /** Whether the viewer has blocked `userId`. */
  async status(viewer: Viewer, userId: string): Promise<BlockState> {
    if (!isId(userId)) throw new NotFoundError(messages.userNotFound);
    return { blocked: await this.blocks.hasBlocked(viewer.id, userId) };
  }

  async block(viewer: Viewer, userId: string): Promise<BlockState> {
    if (viewer.id === userId) throw new ValidationError('You cannot block yourself');
    await this.accounts.byId(userId);
    await withTransaction(this.pool, async (client) => {
      // The follow path takes the same locks, so a follow racing the block cannot slip past it.
      await this.users.lockPair(client, viewer.id, userId);
      await this.blocks.add(client, viewer.id, userId);
      for (const [follower, followed] of [
        [viewer.id, userId],
        [userId, viewer.id],
      ]) {
        const delta = await this.follows.set(client, follower, followed, false);
        if (delta === 0) continue;
        await this.users.moveFollowCounts(client, follower, followed, delta);
        // As an unfollow: an unblock must not bring back "started following you" for it.
        await this.events.record(client, 'follow.removed', {
          followerId: follower,
          userId: followed,
        });
      }
    });
    return { blocked: true };
  }

  async unblock(viewer: Viewer, userId: string): Promise<BlockState> {
    if (!isId(userId)) throw new NotFoundError(messages.userNotFound);
    await this.blocks.remove(viewer.id, userId);
    return { blocked: false };
  }

  /** One's own block list; anyone else's is not found (not forbidden: it is not disclosed). */
  list(
    viewer: Viewer,
    userId: string,
    page: { limit: number; before?: string },
  ): Promise<BlockedUser[]> {
    if (!can(viewer, 'user.self', { userId })) throw new NotFoundError('Not found');
    const before = page.before ? parseCursor(page.before) : null;
    if (page.before && !before) throw new ValidationError('Invalid cursor');
    return this.blocks.list(viewer.id, page.limit, before);
  }
}
