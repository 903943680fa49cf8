import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTelegramShell, type TelegramShell } from '../../src/features/telegram/shell';
import {
  fakeTelegram,
  launchHash,
  LIGHT_BACKGROUND,
  openAt,
  type FakeTelegram,
} from './fake-telegram';

/** The game's own background (shell.ts's GAME_BACKGROUND). */
const GAME_BACKGROUND = '#020617';

/**
 * One Mini App launch on an older Telegram (7.0: no swipe behaviour, no safe areas) with a light
 * theme. Its own file: the SDK keeps what it mounted for the page's life.
 */
let telegram: FakeTelegram;
let shell: TelegramShell;

beforeAll(() => {
  telegram = fakeTelegram();
  openAt(`/play${launchHash({ version: '7.0', background: LIGHT_BACKGROUND })}`);
  shell = startTelegramShell(() => undefined);
});

afterAll(() => {
  vi.unstubAllGlobals();
});

describe('the Telegram shell on an older Telegram with a light theme', () => {
  it('keeps the game dark: Telegram’s header and background take the game’s colour, not the theme’s', () => {
    expect(telegram.paramsOf('web_app_set_header_color')).toEqual([{ color: GAME_BACKGROUND }]);
    expect(telegram.paramsOf('web_app_set_background_color')).toEqual([{ color: GAME_BACKGROUND }]);
    expect(document.documentElement.classList.contains('telegram')).toBe(true);
    expect(document.documentElement.classList.contains('telegram-dark')).toBe(false);
  });

  it('starts without what the client lacks, and still says it is ready and expands', async () => {
    expect(telegram.names()).toContain('web_app_ready');
    expect(telegram.names()).not.toContain('web_app_setup_swipe_behavior');
    expect(telegram.names()).not.toContain('web_app_request_safe_area');
    await expect.poll(() => telegram.names()).toContain('web_app_expand');
  });

  it('still shows Back off the game and hides it on the game, with no swipe setting to send', () => {
    shell.route('/play');
    expect(telegram.during(() => shell.route('/lolgram'))).toEqual([
      ['web_app_setup_back_button', { is_visible: true }],
    ]);
    expect(telegram.during(() => shell.route('/play'))).toEqual([
      ['web_app_setup_back_button', { is_visible: false }],
    ]);
  });

  it('still asks before closing while taps wait to be sent', () => {
    shell.unsent(0);
    expect(telegram.during(() => shell.unsent(2))).toEqual([
      ['web_app_setup_closing_behavior', { need_confirmation: true }],
    ]);
    shell.unsent(0);
  });
});
