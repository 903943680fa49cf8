import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createTelegramLinkCode,
  fetchTelegramLinked,
  telegramSession,
} from '../../src/features/telegram/telegram-api';
import { ApiError } from '../../src/lib/api';
import { makeGameUser } from '../game/builders';
import { makeInitData } from './fake-telegram';
import { json, offline, stubTelegramServer } from './telegram-server';

const initData = makeInitData();

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('POST /api/telegram/session', () => {
  it('sends the init data as JSON, with the cookie, and answers what the server said', async () => {
    const user = makeGameUser({ username: 'tess' });
    const server = stubTelegramServer({
      'POST /api/telegram/session': () => json({ status: 'signed-in', user, created: false }),
    });
    await expect(telegramSession(initData)).resolves.toEqual({
      status: 'signed-in',
      user,
      created: false,
    });
    expect(server.sent).toEqual([
      {
        route: 'POST /api/telegram/session',
        body: { initData },
        contentType: 'application/json',
        credentials: 'include',
      },
    ]);
  });

  it('sends the country with the init data when the first launch has chosen one', async () => {
    const user = makeGameUser({ username: 'tess', country: 'DE' });
    const server = stubTelegramServer({
      'POST /api/telegram/session': () => json({ status: 'signed-in', user, created: true }, 201),
    });
    await expect(telegramSession(initData, 'DE')).resolves.toMatchObject({ created: true, user });
    expect(server.sent[0]!.body).toEqual({ initData, country: 'DE' });
  });

  it('rejects with the server’s status and reason when it refuses the launch', async () => {
    const expired = 'Telegram sign-in data has expired: open the game from Telegram again';
    stubTelegramServer({ 'POST /api/telegram/session': () => json({ error: expired }, 401) });
    const refusal = await telegramSession(initData).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 401, message: expired });
  });

  it('rejects as fetch does when the server cannot be reached', async () => {
    stubTelegramServer({ 'POST /api/telegram/session': offline });
    await expect(telegramSession(initData)).rejects.toThrow(TypeError);
  });
});

describe('POST /api/telegram/link-codes', () => {
  it('asks with the cookie and no body, and answers the code and its link', async () => {
    const code = {
      code: 'c0de',
      link: 'https://t.me/TapGramTestBot/play?startapp=link-c0de',
      expiresAt: '2030-01-01T12:05:00.000Z',
    };
    const server = stubTelegramServer({
      'POST /api/telegram/link-codes': () => json(code, 201),
    });
    await expect(createTelegramLinkCode()).resolves.toEqual(code);
    expect(server.sent).toEqual([
      {
        route: 'POST /api/telegram/link-codes',
        body: undefined,
        contentType: null,
        credentials: 'include',
      },
    ]);
  });

  it('rejects with the server’s reason', async () => {
    const taken = 'This player is already linked to a Telegram account';
    stubTelegramServer({ 'POST /api/telegram/link-codes': () => json({ error: taken }, 409) });
    await expect(createTelegramLinkCode()).rejects.toMatchObject({ status: 409, message: taken });
  });
});

describe('GET /api/telegram/link', () => {
  it('answers whether the web player already opens in Telegram', async () => {
    const server = stubTelegramServer({ 'GET /api/telegram/link': () => json({ linked: true }) });
    await expect(fetchTelegramLinked()).resolves.toBe(true);
    server.answer('GET /api/telegram/link', () => json({ linked: false }));
    await expect(fetchTelegramLinked()).resolves.toBe(false);
    expect(server.sent.map((s) => [s.route, s.credentials])).toEqual([
      ['GET /api/telegram/link', 'include'],
      ['GET /api/telegram/link', 'include'],
    ]);
  });

  it('rejects on a server error instead of answering “not linked”', async () => {
    stubTelegramServer({
      'GET /api/telegram/link': () => json({ error: 'Service unavailable' }, 503),
    });
    await expect(fetchTelegramLinked()).rejects.toMatchObject({ status: 503 });
  });
});
