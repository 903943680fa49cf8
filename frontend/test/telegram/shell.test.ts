import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTelegramShell, type TelegramShell } from '../../src/features/telegram/shell';
import {
  DARK_BACKGROUND,
  fakeTelegram,
  launchHash,
  openAt,
  type FakeTelegram,
} from './fake-telegram';

/**
 * One Mini App launch on a current Telegram (8.0) with a dark theme, through the real SDK: the SDK
 * keeps what it mounted for the page's life, so the file is one page and the shell starts once.
 * Each test looks at what its own steps send, from whatever state the others left.
 */
let telegram: FakeTelegram;
let shell: TelegramShell;
const back = vi.fn();

const root = () => document.documentElement;
const cssVar = (name: string) => root().style.getPropertyValue(name);

beforeAll(() => {
  telegram = fakeTelegram();
  openAt(`/play${launchHash({ version: '8.0', background: DARK_BACKGROUND })}`);
  shell = startTelegramShell(back);
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(() => {
  vi.unstubAllGlobals();
});

describe('the Telegram shell, as it starts', () => {
  it('marks the page as Telegram’s, dark, with the theme’s colours as CSS variables', () => {
    expect(root().classList.contains('telegram')).toBe(true);
    expect(root().classList.contains('telegram-dark')).toBe(true);
    expect(cssVar('--tg-theme-bg-color')).toBe(DARK_BACKGROUND);
  });

  it('paints Telegram’s header and the area behind the page in a dark theme’s own background', () => {
    expect(telegram.paramsOf('web_app_set_header_color')).toEqual([{ color: DARK_BACKGROUND }]);
    expect(telegram.paramsOf('web_app_set_background_color')).toEqual([{ color: DARK_BACKGROUND }]);
  });

  it('tells Telegram it is ready once its colours are set', () => {
    const names = telegram.names();
    expect(names).toContain('web_app_ready');
    expect(names.indexOf('web_app_ready')).toBeGreaterThan(
      names.indexOf('web_app_set_background_color'),
    );
  });

  it('expands to full height once Telegram has answered, with the viewport and safe areas as CSS variables', async () => {
    await expect.poll(() => telegram.names()).toContain('web_app_expand');
    expect(cssVar('--tg-viewport-height')).toBe('600px');
    expect(cssVar('--tg-viewport-width')).toBe('360px');
    expect(cssVar('--tg-viewport-safe-area-inset-top')).toBe('24px');
    expect(cssVar('--tg-viewport-safe-area-inset-bottom')).toBe('16px');
  });
});

describe('the Telegram shell, as the page goes on', () => {
  it('turns vertical swipes off and hides Back on the game, and the reverse on other screens', () => {
    shell.route('/play');
    expect(telegram.during(() => shell.route('/lolgram'))).toEqual([
      ['web_app_setup_swipe_behavior', { allow_vertical_swipe: true }],
      ['web_app_setup_back_button', { is_visible: true }],
    ]);
    expect(telegram.during(() => shell.route('/play'))).toEqual([
      ['web_app_setup_swipe_behavior', { allow_vertical_swipe: false }],
      ['web_app_setup_back_button', { is_visible: false }],
    ]);
  });

  it('goes back when Telegram’s Back button is pressed', () => {
    shell.route('/leaderboard');
    const pressed = back.mock.calls.length;
    telegram.send('back_button_pressed');
    expect(back).toHaveBeenCalledTimes(pressed + 1);
  });

  it('asks before closing while taps wait to be sent, once per change, and no longer once none wait', () => {
    shell.unsent(0);
    expect(telegram.during(() => shell.unsent(1))).toEqual([
      ['web_app_setup_closing_behavior', { need_confirmation: true }],
    ]);
    // More taps waiting change nothing Telegram needs to hear.
    expect(telegram.during(() => shell.unsent(5))).toEqual([]);
    expect(telegram.during(() => shell.unsent(0))).toEqual([
      ['web_app_setup_closing_behavior', { need_confirmation: false }],
    ]);
    expect(telegram.during(() => shell.unsent(0))).toEqual([]);
  });

  it('buzzes a light haptic for a tap, at most once every 80 ms', () => {
    // The throttle reads performance.now(): only that clock is faked.
    vi.useFakeTimers({ toFake: ['performance'] });
    vi.advanceTimersByTime(1000);
    const haptic = ['web_app_trigger_haptic_feedback', { type: 'impact', impact_style: 'light' }];
    expect(telegram.during(() => shell.tapped())).toEqual([haptic]);
    vi.advanceTimersByTime(79);
    expect(telegram.during(() => shell.tapped())).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(telegram.during(() => shell.tapped())).toEqual([haptic]);
  });

  it('opens Telegram’s share sheet with the link and the text', () => {
    const url = 'https://tapgram.example/play?ref=tess';
    const made = telegram.during(() => shell.share(url, 'Tap with me & win'));
    expect(made.map(([name]) => name)).toEqual(['web_app_open_tg_link']);
    const { path_full } = made[0]![1] as { path_full: string };
    const sheet = new URL(path_full, 'https://t.me');
    expect(sheet.pathname).toBe('/share/url');
    expect(sheet.searchParams.get('url')).toBe(url);
    expect(sheet.searchParams.get('text')).toBe('Tap with me & win');
  });
});
