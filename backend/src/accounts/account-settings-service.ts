import { can } from './access';
import {
  accountMessages,
  WALLET_USERNAME_PREFIX,
  type AccountSettings,
  type ChangePasswordBody,
  type DeleteAccountBody,
  type SignInProof,
} from '@tapgram/shared';
import type pg from 'pg';
import { onCommit, violates, withTransaction } from '../core/db';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ServiceUnavailableError,
  UnauthorizedError,
  ValidationError,
} from '../core/errors';
import type { EventBus } from '../core/events';
import type { ImageOwner, ImageStore } from '../images';
import type { LoginGuard } from './login-guard';
import type { PasswordHasher } from './passwords';
import type { SessionStore, Viewer } from './sessions';
import type { SignInSite } from './sign-in-site';
import type { SignInMethods, UsersRepository } from './users-repository';
import { ACCOUNT_GONE } from './viewer';
import type { WalletAuth } from './wallet-auth';
import './events';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long the erasure waits for a row before it gives way, and how many times it starts. */
const ERASE_LOCK_WAIT_MS = 200;
const ERASE_ATTEMPTS = 10;
const ALREADY_DELETED = 'This account was already deleted';
const ERASE_BUSY = 'The account is busy: try again in a moment';

/**
 * What a feature erases of a deleted account, in the deletion's transaction (before the account's
 * row goes and its foreign keys cascade): the counts others see that the account's rows fed, the
 * rows no cascade reaches. Answers the image folders to empty once the deletion is committed.
 */
export type AccountErasure = (client: pg.PoolClient, userId: string) => Promise<ImageOwner[]>;

export interface AccountSettingsDeps {
  pool: pg.Pool;
  users: UsersRepository;
  sessions: SessionStore;
  wallet: WalletAuth;
  passwords: PasswordHasher;
  /** Every password check here counts against the sign-in's limits. */
  loginGuard: LoginGuard;
  images: ImageStore;
  events: EventBus;
  /** DELETED_USERNAME_HOLD_DAYS. */
  usernameHoldDays: number;
  now?: () => Date;
}

/** Who asks, from which session and client, and which site a wallet signature must name. */
export interface Asker {
  viewer: Viewer;
  sessionId: string | null;
  client: string;
  site: SignInSite;
}

/**
 * The rules of an account's own settings: its password, its sessions, its wallet, its deletion.
 * An account always keeps a way to sign in; a password is checked as at sign-in (same limits);
 * a wallet is proven by a fresh signature of the server's request, as at sign-in.
 */
export class AccountSettingsService {
  private readonly erasures: AccountErasure[] = [];
  private readonly now: () => Date;

  constructor(private readonly deps: AccountSettingsDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Adds what a feature erases of a deleted account (each feature adds its own at start-up). */
  addErasure(erasure: AccountErasure): void {
    this.erasures.push(erasure);
  }

  private async methods(viewer: Viewer): Promise<SignInMethods> {
    const methods = await this.deps.users.signInMethods(viewer.id);
    if (!methods) throw new UnauthorizedError(ACCOUNT_GONE);
    return methods;
  }

  async settings({ viewer, sessionId }: Asker): Promise<AccountSettings> {
    const methods = await this.methods(viewer);
    return {
      hasPassword: methods.passwordHash !== null,
      walletAddress: methods.walletAddress,
      otherSessions: await this.deps.sessions.countOthers(viewer.id, sessionId),
    };
  }

  /**
   * Erases the account in one transaction. A request it let in just before may still be writing
   * (a LOL locks the post, then the account); the erasure takes the account first, so rather than
   * wait into a deadlock it gives way after a moment and starts again, finding what was written.
   */
  private async erase(userId: string): Promise<ImageOwner[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await withTransaction(this.deps.pool, async (client) => {
          await client.query(`SET LOCAL lock_timeout = '${ERASE_LOCK_WAIT_MS}ms'`);
          const locked = await this.deps.users.lockForDeletion(client, userId);
          // Deleted meanwhile by another request (the confirmation above passed for both).
          if (!locked) throw new NotFoundError(ALREADY_DELETED);
          const folders: ImageOwner[] = [{ kind: 'avatars', id: userId }];
          for (const erase of this.erasures) folders.push(...(await erase(client, userId)));
          await this.deps.sessions.endAllOf(userId, null, client);
          const name = locked.username.toLowerCase();
          if (this.deps.usernameHoldDays > 0 && !name.startsWith(WALLET_USERNAME_PREFIX)) {
            const until = new Date(this.now().getTime() + this.deps.usernameHoldDays * DAY_MS);
            await this.deps.users.holdUsername(client, locked.username, until);
          }
          await this.deps.users.delete(client, userId);
          onCommit(client, () => this.deps.events.emit('account.deleted', { userId }));
          return folders;
        });
      } catch (error) {
        const contended = violates(error, 'lockNotAvailable') || violates(error, 'deadlock');
        if (!contended) throw error;
        if (attempt >= ERASE_ATTEMPTS) throw new ServiceUnavailableError(ERASE_BUSY, 2);
        await new Promise((resolve) => setTimeout(resolve, attempt * ERASE_LOCK_WAIT_MS));
      }
    }
  }

  /** Checks the account's password as sign-in does (its limits, its timing); 403 when wrong. */
  private async checkPassword(asker: Asker, stored: string | null, password: string) {
    const succeeded = await this.deps.loginGuard.begin(asker.client, asker.viewer.username);
    if (!(await this.deps.passwords.verify(stored, password))) {
      throw new ForbiddenError(accountMessages.wrongPassword);
    }
    await succeeded();
  }

  /** Checks a fresh signature of the account's own wallet; 403 for any other. */
  private async checkWallet(asker: Asker, wallet: string | null, proof: SignInProof) {
    let proven: string;
    try {
      proven = await this.deps.wallet.verify(proof, asker.site);
    } catch (error) {
      // A refused signature is not a lost session: 403, with the reason.
      if (error instanceof UnauthorizedError) throw new ForbiddenError(error.message);
      throw error;
    }
    if (!wallet || proven !== wallet) throw new ForbiddenError(accountMessages.wrongWallet);
  }

  /**
   * Sets a new password, confirmed by the current one (or, for an account without one, by its
   * wallet); every other session of the user ends, this one stays.
   */
  async changePassword(asker: Asker, body: ChangePasswordBody): Promise<{ ended: number }> {
    const methods = await this.methods(asker.viewer);
    if (methods.passwordHash !== null) {
      if (body.currentPassword === undefined) {
        throw new ValidationError(accountMessages.currentPasswordRequired);
      }
      await this.checkPassword(asker, methods.passwordHash, body.currentPassword);
      if (body.currentPassword === body.newPassword) {
        throw new ValidationError(accountMessages.passwordUnchanged);
      }
    } else {
      if (!body.proof) throw new ValidationError(accountMessages.confirmWith);
      await this.checkWallet(asker, methods.walletAddress, body.proof);
    }
    const hash = await this.deps.passwords.hash(body.newPassword);
    if (!(await this.deps.users.setPasswordHash(asker.viewer.id, hash))) {
      throw new UnauthorizedError(ACCOUNT_GONE);
    }
    return { ended: await this.endOtherSessions(asker) };
  }

  endOtherSessions({ viewer, sessionId }: Asker): Promise<number> {
    return this.deps.sessions.endAllOf(viewer.id, sessionId);
  }

  /** Links the wallet that signed the server's request; 409 when either side is taken. */
  async linkWallet(asker: Asker, proof: SignInProof): Promise<AccountSettings> {
    const methods = await this.methods(asker.viewer);
    if (methods.walletAddress !== null)
      throw new ConflictError(accountMessages.walletAlreadyLinked);
    let address: string;
    try {
      address = await this.deps.wallet.verify(proof, asker.site);
    } catch (error) {
      if (error instanceof UnauthorizedError) throw new ForbiddenError(error.message);
      throw error;
    }
    if (await this.deps.users.byWallet(address)) {
      throw new ConflictError(accountMessages.walletTakenElsewhere);
    }
    if (!(await this.deps.users.linkWallet(asker.viewer.id, address))) {
      throw new ConflictError(accountMessages.walletAlreadyLinked);
    }
    return this.settings(asker);
  }

  /** Unlinks the wallet, never the account's last way in, nor the wallet its name is made of. */
  async unlinkWallet(asker: Asker): Promise<AccountSettings> {
    const methods = await this.methods(asker.viewer);
    if (methods.walletAddress === null) throw new ConflictError(accountMessages.walletNotLinked);
    if (methods.passwordHash === null) throw new ConflictError(accountMessages.lastSignInMethod);
    // wallet_ names are only ever their wallet's (sign-up and rename refuse them to anyone else).
    if (methods.username.toLowerCase().startsWith(WALLET_USERNAME_PREFIX)) {
      throw new ConflictError(accountMessages.walletNameKept);
    }
    if (!(await this.deps.users.unlinkWallet(asker.viewer.id))) {
      // Changed meanwhile: the answer says what holds now.
      throw new ConflictError(accountMessages.lastSignInMethod);
    }
    return this.settings(asker);
  }

  /**
   * Deletes the account, confirmed by its password or its wallet: everything it made and every
   * trace of it in others' counts go in one transaction, every session ends, its name is held
   * for DELETED_USERNAME_HOLD_DAYS; its images are deleted once that is committed. Moderation's
   * decisions stay (they name the content's id, never its content).
   */
  async deleteAccount(asker: Asker, body: DeleteAccountBody): Promise<void> {
    const methods = await this.methods(asker.viewer);
    // An admin account is kept: another admin would have to take its role away first.
    if (can(asker.viewer, 'admin', null)) throw new ConflictError(accountMessages.adminKept);
    if (body.password !== undefined && methods.passwordHash !== null) {
      await this.checkPassword(asker, methods.passwordHash, body.password);
    } else if (body.proof && methods.walletAddress !== null) {
      await this.checkWallet(asker, methods.walletAddress, body.proof);
    } else {
      throw new ValidationError(accountMessages.confirmWith);
    }
    const userId = asker.viewer.id;
    // Signed out everywhere first: no new request acts for the account while it is erased.
    await this.deps.sessions.endAllOf(userId, null);
    const owners = await this.erase(userId);
    await Promise.allSettled(owners.map((owner) => this.deps.images.deleteOwner(owner)));
  }
}
