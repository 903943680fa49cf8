import { createHash, randomBytes } from 'node:crypto';
import { LOLGRAM_SESSION_LIFETIME_MS, type AuthMethod } from '@tapgram/shared';
import type { Request, Response } from 'express';
import type pg from 'pg';
import { onCommit, type Queryable } from '../core/db';
import type { EventBus } from '../core/events';
import './events';

export const SESSION_COOKIE = 'lg_session';

export interface Viewer {
  id: string;
  username: string;
  role: 'user' | 'admin';
  authMethod: AuthMethod;
}

/** A session as a long-lived connection holds it: who, until when, and its stored id. */
export interface Session {
  id: string;
  viewer: Viewer;
  expiresAt: Date;
}

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/** Server-side sign-in sessions: the cookie holds a random token, the database only its hash. */
export class SessionStore {
  constructor(
    private readonly db: Queryable,
    private readonly events: EventBus,
  ) {}

  async start(res: Response, req: Request, userId: string, authMethod: AuthMethod): Promise<void> {
    // A fresh token at every sign-in, and the old one (if any) ends: no session fixation.
    await this.forget(req);
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(Date.now() + LOLGRAM_SESSION_LIFETIME_MS);
    await this.db.query(
      'INSERT INTO auth_sessions (id, user_id, auth_method, expires_at) VALUES ($1, $2, $3, $4)',
      [digest(token), userId, authMethod, expires],
    );
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      // Secure whenever the request came over HTTPS; behind a TLS-terminating proxy that needs
      // TRUST_PROXY (its hop count or address), so that req.secure sees X-Forwarded-Proto.
      secure: req.secure,
      expires,
      path: '/',
    });
  }

  async end(req: Request, res: Response): Promise<void> {
    await this.forget(req);
    res.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  private async forget(req: Request): Promise<void> {
    const token = tokenOf(req);
    if (!token) return;
    const { rows } = await this.db.query<{ id: string; user_id: string }>(
      'DELETE FROM auth_sessions WHERE id = $1 RETURNING id, user_id',
      [digest(token)],
    );
    const ended = rows[0];
    if (ended) this.events.emit('session.ended', { userId: ended.user_id, sessionId: ended.id });
  }

  /** The stored id of the request's session (a digest of its token), or null without one. */
  idOf(req: Request): string | null {
    const token = tokenOf(req);
    return token ? digest(token) : null;
  }

  /**
   * Ends every session of the user but `keep` (null: every one), on every node: the rows go from
   * the database each request reads, and each ended session's live sockets are dropped wherever
   * they are. In `client`'s transaction when given (the events follow its commit). Answers how
   * many ended.
   */
  async endAllOf(
    userId: string,
    keep: string | null,
    client: pg.PoolClient | null = null,
  ): Promise<number> {
    const { rows } = await (client ?? this.db).query<{ id: string }>(
      'DELETE FROM auth_sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2 RETURNING id',
      [userId, keep],
    );
    const announce = () => {
      for (const { id } of rows) this.events.emit('session.ended', { userId, sessionId: id });
    };
    if (client) onCommit(client, announce);
    else announce();
    return rows.length;
  }

  /** The user's other sessions that still sign in. */
  async countOthers(userId: string, keep: string | null): Promise<number> {
    const { rows } = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM auth_sessions
        WHERE user_id = $1 AND id IS DISTINCT FROM $2 AND expires_at > now()`,
      [userId, keep],
    );
    return rows[0].count;
  }

  viewer(req: Request): Promise<Viewer | null> {
    const token = tokenOf(req);
    return token ? this.viewerByToken(token) : Promise.resolve(null);
  }

  async viewerByToken(token: string): Promise<Viewer | null> {
    return (await this.session(token))?.viewer ?? null;
  }

  /** The session a token stands for, while it lasts. */
  async session(token: string): Promise<Session | null> {
    const { rows } = await this.db.query<Viewer & { sessionId: string; expiresAt: Date }>(
      `SELECT u.id, u.username, u.role, s.auth_method AS "authMethod",
              s.id AS "sessionId", s.expires_at AS "expiresAt"
         FROM auth_sessions s JOIN lolgram_users u ON u.id = s.user_id
        WHERE s.id = $1 AND s.expires_at > now()`,
      [digest(token)],
    );
    if (!rows[0]) return null;
    const { sessionId, expiresAt, ...viewer } = rows[0];
    return { id: sessionId, viewer, expiresAt };
  }

  /** Deletes sessions past their expiry; they no longer sign anyone in. */
  async deleteExpired(now: Date = new Date()): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM auth_sessions WHERE expires_at <= $1', [
      now,
    ]);
    return rowCount ?? 0;
  }
}

export function tokenOf(req: Request): string | null {
  const value: unknown = req.cookies?.[SESSION_COOKIE];
  return typeof value === 'string' && value.length > 0 ? value : null;
}
