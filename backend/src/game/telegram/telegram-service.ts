import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import {
  messages,
  TELEGRAM_LINK_CODE_MINUTES,
  TELEGRAM_LINK_START_PREFIX,
  telegramStartLink,
  type GameUser,
  type TelegramLinkCode,
  type TelegramLinkOutcome,
  type TelegramSessionAnswer,
} from '@tapgram/shared';
import { withTransaction } from '../../core/db';
import { ConflictError, ServiceUnavailableError, UnauthorizedError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import { GameRepository } from '../repository';
import { verifyInitData, type InitDataRules, type TelegramLaunch } from './init-data';
import { baseUsername, usernameCandidates } from './telegram-names';
import { TelegramRepository } from './telegram-repository';

/** The game's players as this module needs them (the game service). */
export interface TelegramPlayers {
  getUser(id: string): Promise<GameUser>;
  adoptUser(user: GameUser): Promise<void>;
}

/** Where a `startapp` invitation is counted for the player a launch just made. */
export interface TelegramInvitations {
  accept(inviteeId: string, code: string): Promise<void>;
}

export interface TelegramServiceDeps {
  pool: pg.Pool;
  players: TelegramPlayers;
  rules: InitDataRules;
  /** The Mini App's link (https://t.me/<bot>/<app>). */
  appUrl: string;
  logger: Logger;
  invitations?: TelegramInvitations;
}

/** A sign-in's answer, and the player whose cookie it sets (none while the country is asked). */
export interface SignInResult {
  answer: TelegramSessionAnswer;
  userId?: string;
}

/** Attempts of a first launch that met another launch of the same user, or a name just taken. */
const CREATE_ATTEMPTS = 5;
const LINK_CODE_BYTES = 12;

export const linkErrors = {
  unknown: 'This Telegram link has expired or was already used: make a new one on the web',
  playerTaken: 'This player is already linked to another Telegram account',
  accountLinked: 'This Telegram account is already linked to another player',
  alreadyLinked: 'This player is already linked to a Telegram account',
} as const;

/** A launch that met another launch of the same Telegram user, which made the player first. */
class LostRace extends Error {}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Telegram sign-in: the player a Telegram user opens (made on their first launch, one per user
 * even when launches race), and the link of a web player to a Telegram account, once.
 */
export class TelegramService {
  private readonly pool: pg.Pool;
  private readonly players: TelegramPlayers;
  private readonly rules: InitDataRules;
  private readonly appUrl: string;
  private readonly logger: Logger;
  private readonly invitations?: TelegramInvitations;

  constructor({ pool, players, rules, appUrl, logger, invitations }: TelegramServiceDeps) {
    this.pool = pool;
    this.players = players;
    this.rules = rules;
    this.appUrl = appUrl;
    this.logger = logger;
    this.invitations = invitations;
  }

  /**
   * Signs a launch in as the player of its Telegram user. A first launch answers the name the
   * player will get and asks for a country; the same call with `country` makes the player. A
   * link code in the start parameter first moves the account to that web player.
   */
  async signIn(
    initData: string,
    country: string | undefined,
    network: string | null,
  ): Promise<SignInResult> {
    const launch = verifyInitData(initData, this.rules);
    const start = launch.startParam;
    const linkCode = start?.startsWith(TELEGRAM_LINK_START_PREFIX)
      ? start.slice(TELEGRAM_LINK_START_PREFIX.length)
      : undefined;
    const link = linkCode === undefined ? undefined : await this.link(launch, linkCode);
    const invitation = linkCode === undefined ? start : undefined;
    const withLink = link ? { link } : {};
    const accounts = new TelegramRepository(this.pool);
    const base = baseUsername(launch);
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt += 1) {
      const account = await accounts.findAccount(launch.telegramId);
      if (account) {
        const user = await this.players.getUser(account.userId);
        return {
          answer: { status: 'signed-in', user, created: false, ...withLink },
          userId: user.id,
        };
      }
      if (country === undefined) {
        const username = await this.freeName(new GameRepository(this.pool), base);
        return { answer: { status: 'needs-country', username: username ?? base, ...withLink } };
      }
      const user = await this.create(launch, base, country, network);
      if (!user) continue;
      await this.announce(user, invitation);
      return { answer: { status: 'signed-in', user, created: true, ...withLink }, userId: user.id };
    }
    throw new ServiceUnavailableError('Signing in from Telegram is busy, try again in a moment', 1);
  }

  /** A new link code for a web player not yet opened by any Telegram account. */
  async createLinkCode(player: string | null): Promise<TelegramLinkCode> {
    if (!player) throw new UnauthorizedError('Create a player first');
    const accounts = new TelegramRepository(this.pool);
    if ((await accounts.accountOf(player)) !== null) {
      throw new ConflictError(linkErrors.alreadyLinked);
    }
    const code = randomBytes(LINK_CODE_BYTES).toString('base64url');
    const now = this.rules.now();
    const expiresAt = new Date(now + TELEGRAM_LINK_CODE_MINUTES * 60_000);
    await accounts.insertLinkCode(hashCode(code), player, expiresAt, new Date(now));
    return {
      code,
      link: telegramStartLink(this.appUrl, TELEGRAM_LINK_START_PREFIX + code),
      expiresAt: expiresAt.toISOString(),
    };
  }

  async isLinked(player: string | null): Promise<boolean> {
    if (!player) throw new UnauthorizedError('Create a player first');
    return (await new TelegramRepository(this.pool).accountOf(player)) !== null;
  }

  /**
   * Moves the launching account to the code's web player: a new account is bound to it, one whose
   * player Telegram made is moved to it (that player stays, no longer opened from Telegram), one
   * linked before is not moved again. The same launch opened again (a reload) is told it worked.
   */
  private async link(launch: TelegramLaunch, code: string): Promise<TelegramLinkOutcome> {
    const codeHash = hashCode(code);
    const now = new Date(this.rules.now());
    const telegramId = launch.telegramId;
    for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt += 1) {
      try {
        return await withTransaction(this.pool, async (tx) => {
          const accounts = new TelegramRepository(tx);
          const row = await accounts.takeLinkCode(codeHash, now);
          if (row?.usedBy === telegramId) return { ok: true };
          if (!row || row.expired || row.usedBy !== null) {
            return { ok: false, error: linkErrors.unknown };
          }
          const owner = await accounts.accountOf(row.userId);
          if (owner !== null && owner !== telegramId) {
            return { ok: false, error: linkErrors.playerTaken };
          }
          if (owner === null) {
            const account = await accounts.findAccount(telegramId, true);
            if (account?.linked) return { ok: false, error: linkErrors.accountLinked };
            if (account) await accounts.linkAccount(telegramId, row.userId);
            else if (!(await accounts.insertAccount(telegramId, row.userId, true))) {
              throw new LostRace();
            }
          }
          await accounts.markLinkCodeUsed(codeHash, telegramId);
          return { ok: true };
        });
      } catch (error) {
        if (!(error instanceof LostRace)) throw error;
      }
    }
    throw new ServiceUnavailableError('Signing in from Telegram is busy, try again in a moment', 1);
  }

  /** The first name among the candidates that no player holds; null when all are taken. */
  private async freeName(game: GameRepository, base: string): Promise<string | null> {
    const candidates = usernameCandidates(base);
    const taken = await game.takenUsernames(candidates);
    return candidates.find((name) => !taken.has(name.toLowerCase())) ?? null;
  }

  /**
   * Makes the player and binds the account in one transaction; null when another launch of the
   * same user bound it first (this one waited on the account's row, then rolled back) or the name
   * chosen was just taken: the caller looks again.
   */
  private async create(
    launch: TelegramLaunch,
    base: string,
    country: string,
    network: string | null,
  ): Promise<GameUser | null> {
    try {
      return await withTransaction(this.pool, async (tx) => {
        const game = new GameRepository(tx);
        const username = await this.freeName(game, base);
        if (!username) return null;
        const user = await game.insertUser(username, country, network);
        if (!(await new TelegramRepository(tx).insertAccount(launch.telegramId, user.id, false))) {
          throw new LostRace();
        }
        return user;
      });
    } catch (error) {
      if (error instanceof LostRace) return null;
      if (error instanceof ConflictError && error.message === messages.usernameTaken) return null;
      throw error;
    }
  }

  /** Tells the game's store of the new player, and counts the invitation that brought them. */
  private async announce(user: GameUser, invitation: string | undefined): Promise<void> {
    try {
      await this.players.adoptUser(user);
    } catch (err) {
      // The store loads the player at its first tap.
      this.logger.warn({ err, userId: user.id }, 'new Telegram player not yet on the boards');
    }
    if (invitation && this.invitations) await this.invitations.accept(user.id, invitation);
  }
}
