import { randomBytes } from 'node:crypto';
import {
  telegramLinkCodeSchema,
  telegramSessionAnswerSchema,
  type TelegramSessionAnswer,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initDataErrors } from '../../../src/game/telegram/init-data';
import { linkErrors } from '../../../src/game/telegram/telegram-service';
import { startTestServer, type TestServer } from '../../../test-support/server';
import {
  makeTelegramUser,
  signInitData,
  telegramEnv,
  TEST_TELEGRAM_APP_URL,
  type TelegramUser,
} from '../../../test-support/telegram';
import { makePlayer, makeUsername, tap } from '../builders';
import { storageModes } from '../modes';

/** The Telegram Mini Apps SDK's published example (see init-data.test.ts) and its bot token. */
const PUBLISHED_INIT_DATA =
  'query_id=AAHdF6IQAAAAAN0XohDhrOrc' +
  '&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D' +
  '&auth_date=1662771648' +
  '&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2';
const PUBLISHED_BOT_TOKEN = '5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8';

const SESSION = '/api/telegram/session';
const cookieOf = (res: request.Response) => String(res.headers['set-cookie']).split(';')[0];

describe('Telegram sign-in without a bot token', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('does not exist, and the game says nothing of Telegram', async () => {
    const res = await request(server.url)
      .post(SESSION)
      .send({ initData: signInitData(makeTelegramUser()), country: 'GB' });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await request(server.url).post('/api/telegram/link-codes')).status).toBe(404);
    const config = await request(server.url).get('/api/game/config');
    expect(config.body).not.toHaveProperty('telegramAppUrl');
  });

  it("lets no other site frame the game's pages", async () => {
    const page = await request(server.url).get('/healthz');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self';");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});

describe('the published example of init data, signed in with its bot token', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: telegramEnv({ TELEGRAM_BOT_TOKEN: PUBLISHED_BOT_TOKEN }),
      // A minute after Telegram made it: within the hour the server allows.
      now: () => 1662771648_000 + 60_000,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('makes the player of its user, under their Telegram username', async () => {
    const first = await request(server.url).post(SESSION).send({ initData: PUBLISHED_INIT_DATA });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'needs-country', username: 'vdkfrost' });
    const created = await request(server.url)
      .post(SESSION)
      .send({ initData: PUBLISHED_INIT_DATA, country: 'de' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'signed-in',
      created: true,
      user: { username: 'vdkfrost', country: 'DE', totalPoints: 0 },
    });
    const { rows } = await server.db.pool.query(
      'SELECT user_id FROM game_telegram_accounts WHERE telegram_id = 279058397',
    );
    expect(rows).toEqual([{ user_id: created.body.user.id }]);
  });
});

describe.each(storageModes)('Telegram sign-in (%s mode)', (mode) => {
  let server: TestServer;
  /** The server's clock runs this far ahead of the real one. */
  let ahead = 0;
  beforeAll(async () => {
    server = await startTestServer({ mode, env: telegramEnv(), now: () => Date.now() + ahead });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const launch = (initData: string, country?: string) =>
    request(server.url)
      .post(SESSION)
      .send({ initData, ...(country ? { country } : {}) });

  /** Signs `user` in as a launch of the Mini App does, answering the parsed answer and cookie. */
  async function signIn(user: TelegramUser, { country = 'FR', startParam = '' } = {}) {
    const initData = signInitData(user, { startParam, authDate: new Date(Date.now() + ahead) });
    let res = await launch(initData);
    expect(res.status).toBe(200);
    if (res.body.status === 'needs-country') res = await launch(initData, country);
    expect([200, 201]).toContain(res.status);
    const answer: TelegramSessionAnswer = telegramSessionAnswerSchema.parse(res.body);
    if (answer.status !== 'signed-in') throw new Error('not signed in');
    return { answer, cookie: cookieOf(res), initData };
  }

  it("names the Mini App, and lets Telegram's web client frame the game's pages", async () => {
    const config = await request(server.url).get('/api/game/config');
    expect(config.body.telegramAppUrl).toBe(TEST_TELEGRAM_APP_URL);
    const page = await request(server.url).get('/healthz');
    expect(page.headers['content-security-policy']).toContain(
      "frame-ancestors 'self' https://web.telegram.org;",
    );
    expect(page.headers['x-frame-options']).toBeUndefined();
  });

  it('signs a launch in with the player cookie the web uses, and plays', async () => {
    const telegram = makeTelegramUser({ username: `tg_${randomBytes(4).toString('hex')}` });
    const { answer, cookie, initData } = await signIn(telegram);
    expect(answer).toMatchObject({ created: true, user: { username: telegram.username } });
    // On the boards from the start, as a web player is, before any tap.
    const board = await request(server.url).get('/api/leaderboard/users').query({ limit: 1000 });
    expect(board.body.map((u: { id: string }) => u.id)).toContain(answer.user.id);
    const session = await request(server.url)
      .post('/api/sessions')
      .set('Cookie', cookie)
      .send({ userId: answer.user.id });
    expect(session.status).toBe(201);
    const player = { user: answer.user, session: session.body, cookie };
    expect((await tap(server.url, player)).status).toBe(200);

    // The next launch (or a reload) opens the same player, with its taps.
    const again = await launch(initData);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      status: 'signed-in',
      created: false,
      user: { id: answer.user.id, totalTaps: 1 },
    });
    expect(cookieOf(again)).toBe(cookie);
  });

  it('makes exactly one player per Telegram user when launches race', async () => {
    const telegram = makeTelegramUser({ username: `race_${randomBytes(4).toString('hex')}` });
    const initData = signInitData(telegram, { authDate: new Date(Date.now() + ahead) });
    const answers = await Promise.all(Array.from({ length: 6 }, () => launch(initData, 'JP')));
    for (const res of answers) expect([200, 201]).toContain(res.status);
    const ids = new Set(answers.map((res) => res.body.user.id));
    expect(ids.size).toBe(1);
    expect(answers.filter((res) => res.body.created)).toHaveLength(1);
    const { rows } = await server.db.pool.query<{ players: number }>(
      `SELECT count(*)::int AS players FROM game_users WHERE lower(username) LIKE $1`,
      [`${telegram.username}%`],
    );
    expect(rows[0].players).toBe(1);
  });

  it('gives a name another player holds a number, without asking', async () => {
    const taken = makeUsername('dup');
    await makePlayer(server.url, 'GB', taken);
    const { answer } = await signIn(makeTelegramUser({ username: taken.toUpperCase() }));
    expect(answer.user.username).toBe(`${taken.toUpperCase().slice(0, 18)}_2`);
    const named = await signIn(makeTelegramUser({ first_name: 'Ян' }));
    expect(named.answer.user.username).toMatch(/^player(_\d+)?$/);
  });

  it.each([
    [
      'a changed field',
      (raw: string) => raw.replace(/first_name%22%3A%22Tess/, 'first_name%22%3A%22Eve'),
      initDataErrors.badSignature,
    ],
    ['no hash', (raw: string) => raw.replace(/&?hash=[0-9a-f]+/, ''), initDataErrors.notSigned],
    [
      'an empty hash',
      (raw: string) => raw.replace(/hash=[0-9a-f]+/, 'hash='),
      initDataErrors.notSigned,
    ],
    [
      "another bot's token",
      () =>
        signInitData(makeTelegramUser(), {
          token: '987654321:ANOTHER-bots-token-0123456789abcdefghij',
        }),
      initDataErrors.badSignature,
    ],
    [
      'an expired auth_date',
      () => signInitData(makeTelegramUser(), { authDate: new Date(Date.now() - 3601_000) }),
      initDataErrors.expired,
    ],
    [
      'a duplicated key',
      (raw: string) => `${raw}&auth_date=${new URLSearchParams(raw).get('auth_date')}`,
      initDataErrors.duplicated('auth_date'),
    ],
  ])('refuses init data with %s: 401 and why', async (_name, tamper, error) => {
    const raw = signInitData(makeTelegramUser());
    const res = await launch(tamper(raw), 'GB');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('links a web player to a Telegram account once, with a short-lived code', async () => {
    const web = await makePlayer(server.url, 'US');
    expect(
      (await request(server.url).get('/api/telegram/link').set('Cookie', web.cookie)).body,
    ).toEqual({ linked: false });
    const made = await request(server.url)
      .post('/api/telegram/link-codes')
      .set('Cookie', web.cookie);
    expect(made.status).toBe(201);
    const code = telegramLinkCodeSchema.parse(made.body);
    expect(code.link).toBe(`${TEST_TELEGRAM_APP_URL}?startapp=link-${code.code}`);

    const telegram = makeTelegramUser();
    const initData = signInitData(telegram, {
      startParam: `link-${code.code}`,
      authDate: new Date(Date.now() + ahead),
    });
    const linked = await launch(initData);
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      status: 'signed-in',
      created: false,
      link: { ok: true },
      user: { id: web.user.id },
    });
    // The same launch opened again (a reload) is the same player, and told so again.
    expect((await launch(initData)).body).toMatchObject({
      link: { ok: true },
      user: { id: web.user.id },
    });
    expect(
      (await request(server.url).get('/api/telegram/link').set('Cookie', web.cookie)).body,
    ).toEqual({ linked: true });
    const twice = await request(server.url)
      .post('/api/telegram/link-codes')
      .set('Cookie', web.cookie);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ error: linkErrors.alreadyLinked });

    // Another web player's code does not move the account again.
    const other = await makePlayer(server.url, 'US');
    const otherCode = await request(server.url)
      .post('/api/telegram/link-codes')
      .set('Cookie', other.cookie);
    const refused = await launch(
      signInitData(telegram, { startParam: `link-${otherCode.body.code}` }),
    );
    expect(refused.body).toMatchObject({
      link: { ok: false, error: linkErrors.accountLinked },
      user: { id: web.user.id },
    });
  });

  it("moves an account from the player Telegram made to the web player's", async () => {
    const telegram = makeTelegramUser();
    const { answer } = await signIn(telegram);
    const web = await makePlayer(server.url, 'US');
    const code = await request(server.url)
      .post('/api/telegram/link-codes')
      .set('Cookie', web.cookie);
    const { answer: linked } = await signIn(telegram, { startParam: `link-${code.body.code}` });
    expect(linked).toMatchObject({ link: { ok: true }, user: { id: web.user.id } });
    expect(linked.user.id).not.toBe(answer.user.id);
  });

  it('refuses an expired or unknown code, and still signs the launch in', async () => {
    const web = await makePlayer(server.url, 'US');
    const code = await request(server.url)
      .post('/api/telegram/link-codes')
      .set('Cookie', web.cookie);
    ahead += 11 * 60_000;
    const { answer } = await signIn(makeTelegramUser(), { startParam: `link-${code.body.code}` });
    expect(answer).toMatchObject({ created: true, link: { ok: false, error: linkErrors.unknown } });
    expect(answer.user.id).not.toBe(web.user.id);
    const unknown = await signIn(makeTelegramUser(), { startParam: 'link-nothing' });
    expect(unknown.answer.link).toEqual({ ok: false, error: linkErrors.unknown });
  });

  it('counts a startapp invite code once, on the launch that makes the player', async () => {
    const inviter = await makePlayer(server.url, 'US');
    const invite = await request(server.url)
      .get(`/api/users/${inviter.user.id}/invite`)
      .set('Cookie', inviter.cookie);
    const telegram = makeTelegramUser();
    const first = await signIn(telegram, { startParam: invite.body.code });
    const again = await signIn(telegram, { startParam: invite.body.code });
    expect(again.answer).toMatchObject({ created: false, user: { id: first.answer.user.id } });
    const { rows } = await server.db.pool.query(
      'SELECT invitee_id FROM game_invitations WHERE inviter_id = $1',
      [inviter.user.id],
    );
    expect(rows).toEqual([{ invitee_id: first.answer.user.id }]);
    // An existing player launched with an invite link changes nothing.
    const other = await makePlayer(server.url, 'US');
    const code = await request(server.url)
      .get(`/api/users/${other.user.id}/invite`)
      .set('Cookie', other.cookie);
    await signIn(telegram, { startParam: code.body.code });
    const theirs = await server.db.pool.query(
      'SELECT 1 FROM game_invitations WHERE inviter_id = $1',
      [other.user.id],
    );
    expect(theirs.rows).toEqual([]);
  });

  it('makes link codes only for a player', async () => {
    const res = await request(server.url).post('/api/telegram/link-codes');
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual(expect.any(String));
  });
});
