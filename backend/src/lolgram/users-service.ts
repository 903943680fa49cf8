import { randomUUID } from 'node:crypto';
import { messages, walletUsername, type LolgramUser, type SignInProof } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../core/db';
import {
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '../core/errors';
import type { FailureLimiter } from './failure-limiter';
import type { ImageStore } from './images/image-store';
import { processImage } from './images/image-pipeline';
import { hashPassword, verifyPassword } from './passwords';
import type { Viewer } from './sessions';
import type { UsersRepository } from './users-repository';
import type { WalletAuth } from './wallet-auth';

export interface UsersServiceDeps {
  pool: pg.Pool;
  users: UsersRepository;
  wallet: WalletAuth;
  images: ImageStore;
  loginFailures: FailureLimiter;
  adminUsernames: string[];
}

/** The rules of LOLGram accounts: sign-up, sign-in, profiles, avatars and follows. */
export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  private roleFor(username: string): 'user' | 'admin' {
    return this.deps.adminUsernames.includes(username.toLowerCase()) ? 'admin' : 'user';
  }

  async createWithPassword(username: string, password: string): Promise<LolgramUser> {
    const passwordHash = await hashPassword(password);
    return this.deps.users.create({
      username,
      passwordHash,
      walletAddress: null,
      role: this.roleFor(username),
    });
  }

  async createWithWallet(username: string, address: string, proof: SignInProof, host: string) {
    if (proof.input.address !== address)
      throw new UnauthorizedError('Wallet sign-in refused: another address');
    if (username !== walletUsername(address)) {
      throw new ValidationError(`A wallet account's username is ${walletUsername(address)}`);
    }
    await this.deps.wallet.verify(proof, host);
    return this.deps.users.create({
      username,
      passwordHash: null,
      walletAddress: address,
      role: this.roleFor(username),
    });
  }

  async login(username: string, password: string, client: string): Promise<LolgramUser> {
    const key = `${client}|${username.toLowerCase()}`;
    if (this.deps.loginFailures.blocked(key)) {
      throw new TooManyRequestsError(
        'Too many failed sign-in attempts. Try again in a few minutes.',
      );
    }
    const credentials = await this.deps.users.credentials(username);
    const ok = await verifyPassword(credentials?.passwordHash ?? null, password);
    const user = ok && credentials ? await this.deps.users.byId(credentials.id) : null;
    if (!user) {
      this.deps.loginFailures.fail(key);
      throw new UnauthorizedError(messages.invalidCredentials);
    }
    this.deps.loginFailures.reset(key);
    return user;
  }

  async walletLogin(proof: SignInProof, host: string): Promise<LolgramUser> {
    const address = await this.deps.wallet.verify(proof, host);
    const user = await this.deps.users.byWallet(address);
    if (!user) throw new NotFoundError(messages.userNotFound);
    return user;
  }

  async get(lookup: Promise<LolgramUser | null>): Promise<LolgramUser> {
    const user = await lookup;
    if (!user) throw new NotFoundError(messages.userNotFound);
    return user;
  }

  byId(id: string) {
    return this.get(isUuid(id) ? this.deps.users.byId(id) : Promise.resolve(null));
  }

  byUsername(username: string) {
    return this.get(this.deps.users.byUsername(username));
  }

  byWallet(address: string) {
    return this.get(this.deps.users.byWallet(address));
  }

  async updateProfile(
    viewer: Viewer,
    id: string,
    username: string,
    bio: string,
  ): Promise<LolgramUser> {
    assertSelf(viewer, id, 'You can only edit your own profile');
    return this.get(this.deps.users.updateProfile(id, username, bio));
  }

  async setAvatar(viewer: Viewer, id: string, upload: Buffer): Promise<LolgramUser> {
    assertSelf(viewer, id, 'You can only change your own avatar');
    const { full } = await processImage(upload, { square: true });
    const key = `avatars/${id}/${randomUUID()}.jpg`;
    await this.deps.images.put(key, full);
    const updated = await this.deps.users.setAvatar(id, key);
    if (!updated) {
      await this.deps.images.delete(key);
      throw new NotFoundError(messages.userNotFound);
    }
    if (updated.previous) await this.deps.images.delete(updated.previous).catch(() => undefined);
    return updated.user;
  }

  async isFollowing(followerId: string, userId: string): Promise<boolean> {
    if (!isUuid(followerId) || !isUuid(userId)) return false;
    return this.deps.users.isFollowing(followerId, userId);
  }

  async setFollow(viewer: Viewer, followerId: string, userId: string, follow: boolean) {
    assertSelf(viewer, followerId, 'You can only follow as yourself');
    if (followerId === userId) throw new ValidationError('You cannot follow yourself');
    await this.byId(userId);
    const followerCount = await withTransaction(this.deps.pool, (client) =>
      this.deps.users.setFollow(client, followerId, userId, follow),
    );
    return { following: follow, followerCount };
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

function assertSelf(viewer: Viewer, id: string, message: string) {
  if (viewer.id !== id) throw new ForbiddenError(message);
}
