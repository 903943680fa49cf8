import type { TelegramSessionAnswer } from '@tapgram/shared';
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeGameUser } from '../game/builders';
import { launchHash, makeInitData, openAt } from './fake-telegram';
import { json, offline, stubTelegramServer, type Reply } from './telegram-server';

const SESSION = 'POST /api/telegram/session';
const initData = makeInitData();
const user = makeGameUser({ username: 'tess', country: 'DE' });

const signedIn = (extra: Partial<TelegramSessionAnswer> = {}): Reply => {
  return () => json({ status: 'signed-in', user, created: false, ...extra });
};
const needsCountry: Reply = () => json({ status: 'needs-country', username: 'tess' });

/**
 * A fresh page, opened at `url`: the sign-in is kept for the page's life, and so is the launch it
 * reads. The toasts are the same fresh module's, watched as the Toaster does.
 */
async function load(url = `/play${launchHash({ initData })}`) {
  vi.resetModules();
  openAt(url);
  const signIn = await import('../../src/features/telegram/telegram-sign-in');
  const { useToast } = await import('../../src/hooks/use-toast');
  const { result } = renderHook(() => useToast());
  const toasts = () =>
    result.current.toasts.map(({ title, description, variant }) => ({
      title,
      description,
      variant,
    }));
  return { ...signIn, toasts };
}

const sessionCalls = (server: ReturnType<typeof stubTelegramServer>) =>
  server.sent.filter((s) => s.route === SESSION);

beforeEach(() => {
  sessionStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Telegram sign-in on the web', () => {
  it('is not attempted: no outcome, no call', async () => {
    const server = stubTelegramServer({ [SESSION]: signedIn() });
    const { telegramSignIn, createTelegramPlayer } = await load('/play');
    expect(telegramSignIn()).toBeNull();
    await expect(createTelegramPlayer('DE')).rejects.toThrow('Not opened from Telegram');
    expect(server.sent).toEqual([]);
  });
});

describe('Telegram sign-in in a Mini App launch', () => {
  it('signs a returning player in with the launch’s init data, and says nothing else', async () => {
    const server = stubTelegramServer({ [SESSION]: signedIn() });
    const { telegramSignIn, toasts } = await load();
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'signed-in', user });
    expect(sessionCalls(server).map((s) => s.body)).toEqual([{ initData }]);
    expect(toasts()).toEqual([]);
  });

  it('answers the name a first launch will play under, to ask for a country', async () => {
    stubTelegramServer({ [SESSION]: needsCountry });
    const { telegramSignIn } = await load();
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'needs-country', username: 'tess' });
  });

  it('asks the server once per page, however often the page asks', async () => {
    const server = stubTelegramServer({ [SESSION]: signedIn() });
    const { telegramSignIn } = await load();
    const first = telegramSignIn();
    expect(telegramSignIn()).toBe(first);
    await first;
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'signed-in', user });
    expect(sessionCalls(server)).toHaveLength(1);
  });

  it('says so when the launch’s link code bound this Telegram account to a web player', async () => {
    stubTelegramServer({ [SESSION]: signedIn({ link: { ok: true } }) });
    const { telegramSignIn, toasts } = await load();
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'signed-in', user });
    expect(toasts()).toEqual([
      {
        title: 'Linked',
        description: 'This Telegram account now opens your web player.',
        variant: undefined,
      },
    ]);
  });

  it('says why the launch’s link code did not link, and still signs in', async () => {
    const taken = 'This player is already linked to another Telegram account';
    stubTelegramServer({
      [SESSION]: () =>
        json({ status: 'needs-country', username: 'tess', link: { ok: false, error: taken } }),
    });
    const { telegramSignIn, toasts } = await load();
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'needs-country', username: 'tess' });
    expect(toasts()).toEqual([{ title: 'Not linked', description: taken, variant: 'destructive' }]);
  });

  it('is refused, with the server’s reason, when the init data is not good, and does not ask again', async () => {
    const expired = 'Telegram sign-in data has expired: open the game from Telegram again';
    const server = stubTelegramServer({ [SESSION]: () => json({ error: expired }, 401) });
    const { telegramSignIn } = await load();
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'refused', message: expired });
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'refused', message: expired });
    expect(sessionCalls(server)).toHaveLength(1);
  });

  it('is refused when the server has no Telegram bot (the endpoint is 404)', async () => {
    const missing = 'No such endpoint: POST /api/telegram/session';
    stubTelegramServer({ [SESSION]: () => json({ error: missing }, 404) });
    const { telegramSignIn } = await load();
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'refused', message: missing });
  });

  it('rejects on a server error, and the next call asks again', async () => {
    const server = stubTelegramServer({
      [SESSION]: () => json({ error: 'Service unavailable' }, 503),
    });
    const { telegramSignIn } = await load();
    await expect(telegramSignIn()).rejects.toMatchObject({ name: 'ApiError', status: 503 });
    server.answer(SESSION, signedIn());
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'signed-in', user });
    expect(sessionCalls(server)).toHaveLength(2);
  });

  it('rejects when the server cannot be reached, and the next call asks again', async () => {
    const server = stubTelegramServer({ [SESSION]: offline });
    const { telegramSignIn } = await load();
    await expect(telegramSignIn()).rejects.toThrow('Failed to fetch');
    server.answer(SESSION, needsCountry);
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'needs-country', username: 'tess' });
    expect(sessionCalls(server)).toHaveLength(2);
  });
});

describe('a first launch’s player, made with the chosen country', () => {
  it('is made with the init data and the country, and the page is then signed in as it', async () => {
    const server = stubTelegramServer({ [SESSION]: needsCountry });
    const { telegramSignIn, createTelegramPlayer } = await load();
    await expect(telegramSignIn()).resolves.toMatchObject({ kind: 'needs-country' });

    server.answer(SESSION, () => json({ status: 'signed-in', user, created: true }, 201));
    await expect(createTelegramPlayer('DE')).resolves.toEqual(user);
    expect(sessionCalls(server).map((s) => s.body)).toEqual([
      { initData },
      { initData, country: 'DE' },
    ]);
    // The page's sign-in is now this player's, without asking the server again.
    await expect(telegramSignIn()).resolves.toEqual({ kind: 'signed-in', user });
    expect(sessionCalls(server)).toHaveLength(2);
  });

  it('is not made when the server still asks for a country', async () => {
    stubTelegramServer({ [SESSION]: needsCountry });
    const { createTelegramPlayer } = await load();
    await expect(createTelegramPlayer('DE')).rejects.toThrow('Choose a country to start playing');
  });

  it('rejects with the server’s reason when it refuses the launch', async () => {
    const badBot = "Telegram sign-in data is not signed by this game's bot";
    stubTelegramServer({ [SESSION]: () => json({ error: badBot }, 401) });
    const { createTelegramPlayer } = await load();
    await expect(createTelegramPlayer('DE')).rejects.toMatchObject({
      status: 401,
      message: badBot,
    });
  });
});
