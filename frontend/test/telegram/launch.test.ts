import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { launchHash, makeInitData, openAt } from './fake-telegram';

/** Where a launch's parameters are kept for the tab (launch.ts's KEPT). */
const KEPT = 'tapgram.telegram.launch';

/** A fresh page: the launch is read once, at the first question, for the page's life. */
async function load() {
  vi.resetModules();
  return import('../../src/features/telegram/launch');
}

/** The page inside Telegram's app, which gives it a bridge object. */
const inTelegramsWebview = () => vi.stubGlobal('TelegramWebviewProxy', { postEvent: () => {} });

beforeEach(() => {
  sessionStorage.clear();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the Mini App launch, on the web', () => {
  it('is no launch, and opens no storage to say so', async () => {
    openAt('/play');
    const opened = vi.spyOn(globalThis, 'sessionStorage', 'get');
    const { inTelegram, telegramInitData, telegramLaunchParams } = await load();
    expect(inTelegram()).toBe(false);
    expect(telegramInitData()).toBeNull();
    expect(telegramLaunchParams()).toBeNull();
    expect(opened).not.toHaveBeenCalled();
  });

  it('ignores a launch kept by an earlier page of the tab when the page is neither in Telegram nor framed', async () => {
    sessionStorage.setItem(KEPT, new URLSearchParams({ tgWebAppData: makeInitData() }).toString());
    openAt('/play');
    const { inTelegram } = await load();
    expect(inTelegram()).toBe(false);
  });
});

describe('the Mini App launch, opened by Telegram', () => {
  it('reads the init data from the hash, as it came', async () => {
    const initData = makeInitData(42);
    openAt(`/play${launchHash({ initData, version: '8.0' })}`);
    const { inTelegram, telegramInitData, telegramLaunchParams } = await load();
    expect(inTelegram()).toBe(true);
    expect(telegramInitData()).toBe(initData);
    expect(telegramLaunchParams()?.get('tgWebAppVersion')).toBe('8.0');
  });

  it('keeps the launch for the tab: a reload in Telegram’s webview without the hash is still the launch', async () => {
    const initData = makeInitData(42);
    openAt(`/play${launchHash({ initData })}`);
    expect((await load()).telegramInitData()).toBe(initData);

    openAt('/play');
    inTelegramsWebview();
    const reloaded = await load();
    expect(reloaded.inTelegram()).toBe(true);
    expect(reloaded.telegramInitData()).toBe(initData);
  });

  it('finds a kept launch in Telegram’s web client too, where the page is framed', async () => {
    const initData = makeInitData(42);
    openAt(`/play${launchHash({ initData })}`);
    expect((await load()).telegramInitData()).toBe(initData);

    openAt('/play');
    vi.stubGlobal('parent', {});
    expect((await load()).telegramInitData()).toBe(initData);
  });

  it('is no launch in Telegram’s webview when neither the hash nor the tab has one', async () => {
    openAt('/play');
    inTelegramsWebview();
    const { inTelegram, telegramLaunchParams } = await load();
    expect(inTelegram()).toBe(false);
    expect(telegramLaunchParams()).toBeNull();
  });

  it('is no launch when the init data is empty', async () => {
    openAt('/play#tgWebAppData=&tgWebAppVersion=8.0');
    const { inTelegram, telegramInitData } = await load();
    expect(telegramInitData()).toBeNull();
    expect(inTelegram()).toBe(false);
  });

  it('answers the launch the page opened with for the page’s life, whatever the hash becomes', async () => {
    const initData = makeInitData(42);
    openAt(`/play${launchHash({ initData })}`);
    const { telegramInitData } = await load();
    expect(telegramInitData()).toBe(initData);
    openAt('/lolgram#top');
    expect(telegramInitData()).toBe(initData);
  });
});

describe('the Mini App launch, when the tab’s storage is refused', () => {
  beforeEach(() => {
    // A private mode: every use of the tab's storage throws.
    const refuse = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    vi.stubGlobal('sessionStorage', { getItem: refuse, setItem: refuse, removeItem: refuse });
  });

  it('still reads the launch from the hash', async () => {
    const initData = makeInitData(42);
    openAt(`/play${launchHash({ initData })}`);
    const { inTelegram, telegramInitData } = await load();
    expect(inTelegram()).toBe(true);
    expect(telegramInitData()).toBe(initData);
  });

  it('is no launch without the hash, instead of failing', async () => {
    openAt('/play');
    inTelegramsWebview();
    const { inTelegram } = await load();
    expect(inTelegram()).toBe(false);
  });
});
