import { randomUUID } from 'node:crypto';
import {
  messages,
  WALLET_USERNAME_PREFIX,
  walletUsername,
  type LolgramUser,
  type SignInProof,
} from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../core/db';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '../core/errors';
import type { FailureLimiter } from './failure-limiter';
import type { ImageStore } from './images/image-store';
import { processImage } from './images/image-pipeline';
import { limitKey } from './limits';
import type { LoginGuard } from './login-guard';
import { hashPassword, verifyPassword } from './passwords';
import type { Viewer } from './sessions';
import type { SignInSite } from './sign-in-site';
import type { UsersRepository } from './users-repository';
import type { WalletAuth } from './wallet-auth';

export interface UsersServiceDeps {
  pool: pg.Pool;
  users: UsersRepository;
  wallet: WalletAuth;
  images: ImageStore;
  loginGuard: LoginGuard;
  /** Wallet sign-in requests per client address: each one stores a row. */
  nonceLimiter: FailureLimiter;
  adminUsernames: string[];
}

/** The rules of LOLGram accounts: sign-up, sign-in, profiles, avatars and follows. */
export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  private roleFor(username: string): 'user' | 'admin' {
    return this.isAdminName(username) ? 'admin' : 'user';
  }

  private isAdminName(username: string): boolean {
    return this.deps.adminUsernames.includes(username.toLowerCase());
  }

  async createWithPassword(username: string, password: string): Promise<LolgramUser> {
    assertNotWalletName(username);
    const passwordHash = await hashPassword(password);
    return this.deps.users.create({
      username,
      passwordHash,
      walletAddress: null,
      role: this.roleFor(username),
    });
  }

  async createWithWallet(username: string, address: string, proof: SignInProof, site: SignInSite) {
    if (username !== walletUsername(address)) {
      throw new ValidationError(`A wallet account's username is ${walletUsername(address)}`);
    }
    const proven = await this.deps.wallet.verify(proof, site);
    if (proven !== address) throw new UnauthorizedError('Wallet sign-in refused: another address');
    return this.deps.users.create({
      username,
      passwordHash: null,
      walletAddress: address,
      role: this.roleFor(username),
    });
  }

  async login(username: string, password: string, client: string): Promise<LolgramUser> {
    const succeeded = this.deps.loginGuard.begin(client, username);
    const credentials = await this.deps.users.credentials(username);
    const ok = await verifyPassword(credentials?.passwordHash ?? null, password);
    const user = ok && credentials ? await this.deps.users.byId(credentials.id) : null;
    if (!user) throw new UnauthorizedError(messages.invalidCredentials);
    succeeded();
    return user;
  }

  issueSignIn(address: string, site: SignInSite, client: string) {
    if (!this.deps.nonceLimiter.take(limitKey(client))) {
      throw new TooManyRequestsError('Too many sign-in requests. Try again in a few minutes.');
    }
    return this.deps.wallet.issue(address, site);
  }

  async walletLogin(proof: SignInProof, site: SignInSite): Promise<LolgramUser> {
    const address = await this.deps.wallet.verify(proof, site);
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
    const current = await this.byId(id);
    // A wallet account may keep (or get back) its own wallet_ name; nobody else may take one.
    const ownWalletName =
      current.walletAddress !== null && username === walletUsername(current.walletAddress);
    if (username !== current.username && !ownWalletName) assertNotWalletName(username);
    // A listed admin name is kept for whoever signs up with it: a rename cannot claim it.
    const renamed = username.toLowerCase() !== current.username.toLowerCase();
    if (renamed && this.isAdminName(username)) throw new ConflictError(messages.usernameTaken);
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

/** wallet_ names belong to wallet accounts: a taken one would block its wallet from signing up. */
function assertNotWalletName(username: string) {
  if (username.toLowerCase().startsWith(WALLET_USERNAME_PREFIX)) {
    throw new ValidationError(messages.usernameReserved);
  }
}

function assertSelf(viewer: Viewer, id: string, message: string) {
  if (viewer.id !== id) throw new ForbiddenError(message);
}
