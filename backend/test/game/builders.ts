import { randomBytes } from 'node:crypto';
import type { GameSession, GameUser } from '@tapgram/shared';
import request from 'supertest';

export interface Player {
  user: GameUser;
  session: GameSession;
  cookie: string;
}

export function makeUsername(prefix = 'p'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`.slice(0, 20);
}

/** Creates a player the way a browser does, keeping its cookie, and opens a session. */
export async function makePlayer(
  url: string,
  country = 'GB',
  username = makeUsername(),
): Promise<Player> {
  const created = await request(url).post('/api/users').send({ username, country });
  if (created.status !== 201) throw new Error(`create user: ${created.status} ${created.text}`);
  const cookie = String(created.headers['set-cookie']).split(';')[0];
  const session = await request(url)
    .post('/api/sessions')
    .set('Cookie', cookie)
    .send({ userId: created.body.id, sessionPoints: 0, sessionTaps: 0 });
  if (session.status !== 201) throw new Error(`create session: ${session.status} ${session.text}`);
  return { user: created.body, session: session.body, cookie };
}

export function tap(url: string, player: Player, extra: Record<string, unknown> = {}) {
  return request(url)
    .post('/api/tap')
    .set('Cookie', player.cookie)
    .send({
      userId: player.user.id,
      sessionId: player.session.id,
      pointsPerTap: 1,
      sessionPoints: 0,
      sessionTaps: 0,
      ...extra,
    });
}
