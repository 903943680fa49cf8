import { messages } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import type { EventBus } from '../../core/events';
import { ForbiddenError, NotFoundError, ValidationError } from '../../core/errors';
import { isId } from '../../core/ids';
import { can, type UsersService, type UsersRepository, type Viewer } from '../../accounts';
import './events';
import type { FollowsRepository } from './follows-repository';
import type { BlocksRepository } from './blocks-repository';

export interface FollowsServiceDeps {
  pool: pg.Pool;
  follows: FollowsRepository;
  blocks: BlocksRepository;
  users: UsersRepository;
  accounts: UsersService;
  events: EventBus;
}

/** Who follows whom: one's own follows only, never oneself, counts kept exact. */
export class FollowsService {
  private readonly pool: pg.Pool;
  private readonly follows: FollowsRepository;
  private readonly blocks: BlocksRepository;
  private readonly users: UsersRepository;
  private readonly accounts: UsersService;
  private readonly events: EventBus;

  constructor({ pool, follows, blocks, users, accounts, events }: FollowsServiceDeps) {
    this.pool = pool;
    this.follows = follows;
    this.blocks = blocks;
    this.users = users;
    this.accounts = accounts;
    this.events = events;
  }

  async isFollowing(followerId: string, userId: string): Promise<boolean> {
    if (!isId(followerId) || !isId(userId)) return false;
    return this.follows.isFollowing(followerId, userId);
  }

  async setFollow(viewer: Viewer, followerId: string, userId: string, follow: boolean) {
    if (!can(viewer, 'user.self', { userId: followerId })) {
      throw new ForbiddenError('You can only follow as yourself');
    }
    if (followerId === userId) throw new ValidationError('You cannot follow yourself');
    await this.accounts.byId(userId);
    const { followerCount } = await withTransaction(this.pool, async (client) => {
      if (!(await this.users.lockPair(client, followerId, userId))) {
        throw new NotFoundError(messages.userNotFound);
      }
      // Under the pair's lock, which a block takes too. The same words whoever blocked whom.
      if (follow && (await this.blocks.isBlockedEitherWay(followerId, userId, client))) {
        throw new ForbiddenError(messages.cannotFollow);
      }
      const delta = await this.follows.set(client, followerId, userId, follow);
      if (delta > 0) await this.events.record(client, 'follow.added', { followerId, userId });
      if (delta < 0) await this.events.record(client, 'follow.removed', { followerId, userId });
      return {
        followerCount: await this.users.moveFollowCounts(client, followerId, userId, delta),
        delta,
      };
    });
    return { following: follow, followerCount };
  }
}
