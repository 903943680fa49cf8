import { can } from './access';
import { randomUUID } from 'node:crypto';
import {
  accountMessages,
  messages,
  WALLET_USERNAME_PREFIX,
  walletUsername,
  type LolgramUser,
  type SignInProof,
} from '@tapgram/shared';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
} from '../core/errors';
import type { RateLimit } from '../core/limiter';
import { variantKey, type ImageStore, type ImageUploads } from '../images';
import { limitKey } from './limits';
import type { LoginGuard } from './login-guard';
import type { PasswordHasher } from './passwords';
import type { Viewer } from './sessions';
import type { SignInSite } from './sign-in-site';
import type { UsersRepository } from './users-repository';
import type { WalletAuth } from './wallet-auth';
import { isId } from '../core/ids';

export interface UsersServiceDeps {
  users: UsersRepository;
  wallet: WalletAuth;
  images: ImageStore;
  /** Every avatar goes through it: the per-user limit and the image queue. */
  uploads: ImageUploads;
  loginGuard: LoginGuard;
  /** Wallet sign-in requests per client address: each one stores a row. */
  nonceLimit: RateLimit;
  /** New accounts per client address: each password sign-up costs a hash, each one a row. */
  signupLimit: RateLimit;
  passwords: PasswordHasher;
  /** ADMIN_USERNAMES: kept for `npm run admin -- create`, never taken by sign-up or rename. */
  adminUsernames: string[];
}

const TOO_MANY_SIGNUPS = 'Too many new accounts from this address. Try again later.';
const adminNameReserved = (username: string) =>
  `This username is reserved for an admin: create it with "npm run admin -- create ${username}"`;
const ADMIN_NAME_KEPT =
  'This username is listed in ADMIN_USERNAMES: it cannot change while it is listed';

/** The rules of accounts: sign-up, sign-in, profiles and avatars. */
export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  /** A deleted account's name stays unavailable for DELETED_USERNAME_HOLD_DAYS. */
  private async assertNotHeld(username: string): Promise<void> {
    if (await this.deps.users.isHeld(username)) {
      throw new ConflictError(accountMessages.usernameUnavailable);
    }
  }

  private isAdminName(username: string): boolean {
    return this.deps.adminUsernames.includes(username.toLowerCase());
  }

  /** A sign-up never makes an admin: roles come from the admin CLI and ADMIN_USERNAMES at start. */
  async createWithPassword(
    username: string,
    password: string,
    client: string,
  ): Promise<LolgramUser> {
    assertNotWalletName(username);
    if (this.isAdminName(username)) throw new ConflictError(adminNameReserved(username));
    await this.deps.signupLimit.take(limitKey(client), TOO_MANY_SIGNUPS);
    // A taken name is refused before the hash is paid for (the insert still decides a race).
    if (await this.deps.users.byUsername(username)) throw new ConflictError(messages.usernameTaken);
    await this.assertNotHeld(username);
    const passwordHash = await this.deps.passwords.hash(password);
    return this.deps.users.create({ username, passwordHash, walletAddress: null, role: 'user' });
  }

  /**
   * Only the wallet itself can hold its wallet_ name, so a listed one is not reserved: it becomes
   * an admin at the next start, or with `npm run admin -- grant`.
   */
  async createWithWallet({
    username,
    address,
    proof,
    site,
    client,
  }: {
    username: string;
    address: string;
    proof: SignInProof;
    site: SignInSite;
    /** The client's address, which the sign-up limit counts by. */
    client: string;
  }) {
    if (username !== walletUsername(address)) {
      throw new ValidationError(`A wallet account's username is ${walletUsername(address)}`);
    }
    await this.deps.signupLimit.take(limitKey(client), TOO_MANY_SIGNUPS);
    const proven = await this.deps.wallet.verify(proof, site);
    if (proven !== address) throw new UnauthorizedError('Wallet sign-in refused: another address');
    return this.deps.users.create({
      username,
      passwordHash: null,
      walletAddress: address,
      role: 'user',
    });
  }

  async login(username: string, password: string, client: string): Promise<LolgramUser> {
    const succeeded = await this.deps.loginGuard.begin(client, username);
    const credentials = await this.deps.users.credentials(username);
    const ok = await this.deps.passwords.verify(credentials?.passwordHash ?? null, password);
    const user = ok && credentials ? await this.deps.users.byId(credentials.id) : null;
    if (!user) throw new UnauthorizedError(messages.invalidCredentials);
    await succeeded();
    return user;
  }

  async issueSignIn(address: string, site: SignInSite, client: string) {
    await this.deps.nonceLimit.take(
      limitKey(client),
      'Too many sign-in requests. Try again in a few minutes.',
    );
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
    return this.get(isId(id) ? this.deps.users.byId(id) : Promise.resolve(null));
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
    // While a name is listed, its holder keeps it and nobody else takes it: a listed name that is
    // given up or free could be claimed by anyone, and ADMIN_USERNAMES would make them an admin.
    const renamed = username.toLowerCase() !== current.username.toLowerCase();
    if (renamed && this.isAdminName(current.username)) throw new ConflictError(ADMIN_NAME_KEPT);
    if (renamed && this.isAdminName(username)) throw new ConflictError(adminNameReserved(username));
    if (renamed) await this.assertNotHeld(username);
    return this.get(this.deps.users.updateProfile(id, username, bio));
  }

  async setAvatar(viewer: Viewer, id: string, upload: Buffer): Promise<LolgramUser> {
    assertSelf(viewer, id, 'You can only change your own avatar');
    const { full, copies } = await this.deps.uploads.avatar(viewer.id, upload);
    const key = `avatars/${id}/${randomUUID()}.jpg`;
    const widths = copies.map((copy) => copy.width);
    await Promise.all([
      this.deps.images.put(key, full),
      ...copies.map((copy) => this.deps.images.put(variantKey(key, copy.width), copy.bytes)),
    ]);
    const updated = await this.deps.users.setAvatar(id, key, widths);
    if (!updated) {
      await this.deleteAvatar(key, widths);
      throw new NotFoundError(messages.userNotFound);
    }
    if (updated.previous) {
      await this.deleteAvatar(updated.previous.key, updated.previous.widths).catch(() => undefined);
    }
    return updated.user;
  }

  /** An avatar's file and its copies. */
  private async deleteAvatar(key: string, widths: number[]): Promise<void> {
    await Promise.all([
      this.deps.images.delete(key),
      ...widths.map((width) => this.deps.images.delete(variantKey(key, width))),
    ]);
  }
}

/** wallet_ names belong to wallet accounts: a taken one would block its wallet from signing up. */
export function assertNotWalletName(username: string) {
  if (username.toLowerCase().startsWith(WALLET_USERNAME_PREFIX)) {
    throw new ValidationError(messages.usernameReserved);
  }
}

function assertSelf(viewer: Viewer, id: string, message: string) {
  if (!can(viewer, 'user.self', { userId: id })) throw new ForbiddenError(message);
}
