// @vitest-environment happy-dom
import {
  gameEvents,
  referralCancelReasons,
  referralWaitingReason,
  type Friend,
  type FriendsBoard,
  type Invitation,
} from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FriendsCard } from '../../src/features/game/friends/FriendsCard';
import type * as GameSocketModule from '../../src/features/game/game-socket';
import type * as TelegramModule from '../../src/features/telegram';
import { createQueryClient } from '../../src/lib/query-client';
import { checkPush } from '../socket-answers';
import { deferred } from './builders';
import { GAME_CONFIG, stubFriendsApi, type FriendsApi } from './friends-api';
import { json } from './game-api';

/**
 * The game channel, which the test pushes on as the server would. The module's socket is replaced
 * rather than socket.io's client (as fake-socket.ts does): the `friends` push has no payload and no
 * schema in test/socket-answers.ts; the season's pushes are checked there by hand.
 */
const channel = vi.hoisted(() => {
  const handlers = new Map<string, Set<(...args: unknown[]) => void>>();
  return {
    on(event: string, handler: (...args: unknown[]) => void) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)?.add(handler);
    },
    off(event: string, handler: (...args: unknown[]) => void) {
      handlers.get(event)?.delete(handler);
    },
    fire(event: string, ...args: unknown[]) {
      for (const handler of handlers.get(event) ?? []) handler(...args);
    },
    listeners: () => [...handlers.values()].reduce((sum, set) => sum + set.size, 0),
  };
});

vi.mock('../../src/features/game/game-socket', async (importOriginal) => ({
  ...(await importOriginal<typeof GameSocketModule>()),
  gameSocket: () => channel,
}));

/**
 * Whether the page runs in Telegram's Mini App, and whether its SDK (the share sheet) is up: read
 * once a page from its launch hash, and loaded apart in a real launch, so both are stood in for.
 */
const telegram = vi.hoisted(() => ({
  inside: false,
  shellUp: true,
  shared: [] as [string, string][],
}));

vi.mock('../../src/features/telegram', async (importOriginal) => {
  const real = await importOriginal<typeof TelegramModule>();
  return {
    ...real,
    inTelegram: () => telegram.inside,
    telegramShell: {
      ...real.telegramShell,
      share(url: string, text: string) {
        if (!telegram.shellUp) return false;
        telegram.shared.push([url, text]);
        return true;
      },
    },
  };
});

const ME = '00000000-0000-4000-8000-000000000001';
const amy: Friend = { id: '00000000-0000-4000-8000-00000000000a', username: 'amy' };
const bob: Friend = { id: '00000000-0000-4000-8000-00000000000b', username: 'bob' };
const CODE = 'abcd2345';
const TELEGRAM_APP = 'https://t.me/tapgram_bot/play';
const SHARE_TEXT = 'Tap with me on TapGram!';

const board = (amyPoints: number): FriendsBoard => ({
  season: 3,
  rows: [
    { id: amy.id, username: 'amy', points: amyPoints, rank: 1, relation: 'inviter' },
    { id: ME, username: 'me_player', points: 40, rank: 2, relation: 'me' },
    { id: bob.id, username: 'bob', points: 10, rank: 3, relation: 'friend' },
  ],
});

const invitation = (n: number, over: Partial<Invitation>): Invitation => ({
  id: `inv-${n}`,
  invitee: {
    id: `00000000-0000-4000-8000-0000000001${String(n).padStart(2, '0')}`,
    username: `guest${n}`,
  },
  joinedAt: '2026-03-02T10:00:00.000Z',
  state: 'joined',
  taps: 0,
  days: 0,
  paidAt: null,
  reason: null,
  ...over,
});

function server(over: Partial<FriendsApi> = {}): FriendsApi {
  return {
    userId: ME,
    players: [amy, bob],
    friends: { friends: [bob], inviter: amy, incoming: [], outgoing: [] },
    board: board(80),
    invite: { code: CODE, path: `/play?ref=${CODE}` },
    invitations: { rules: { taps: 1000, days: 2, dailyCap: 5, bonus: 5000 }, invitations: [] },
    bonuses: [],
    config: GAME_CONFIG,
    ...over,
  };
}

function renderCard() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <FriendsCard userId={ME} />
    </QueryClientProvider>,
  );
}

const WEB_LINK = () => `${window.location.origin}/play?ref=${CODE}`;
const linkBox = () => screen.findByRole<HTMLInputElement>('textbox', { name: 'Your invite link' });

/** The board's rows as "rank name [relation] points", as the browser test reads them. */
const boardRows = () =>
  within(screen.getByTestId('friends-board'))
    .getAllByRole('listitem')
    .map((item) => Array.from(item.children, (part) => part.textContent?.trim()).join(' '));

/** Each invitation as "name · state · detail". */
const invitationRows = () =>
  within(screen.getByTestId('invitations'))
    .getAllByRole('listitem')
    .map((item) => {
      const [head, detail] = Array.from(item.children);
      const [name, state] = Array.from(head.children, (part) => part.textContent);
      return `${name} · ${state} · ${detail.textContent}`;
    });

/** What the invite panel says of a copy. */
const inviteStatus = () => within(screen.getByTestId('invite')).getByRole('status');

function stubClipboard(writeText: (text: string) => Promise<void> = async () => undefined) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true });
  return spy;
}

function stubShare(share: (data: ShareData) => Promise<void>) {
  const spy = vi.fn(share);
  Object.defineProperty(navigator, 'share', { value: spy, configurable: true });
  return spy;
}

beforeEach(() => {
  Object.assign(telegram, { inside: false, shellUp: true, shared: [] });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  // Back to the device's own (happy-dom's clipboard; no Web Share).
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(navigator, 'share');
});

describe('the friends card', () => {
  it('shows the board with each one’s relation, the invite link with the bonus, once read', async () => {
    const invite = deferred<Response>();
    const api = server();
    api.override = { [`GET /api/users/${ME}/invite`]: () => invite.promise };
    stubFriendsApi(api);
    renderCard();
    // The link loads: nothing to copy, share or show as a QR code yet.
    expect(screen.queryByRole('textbox', { name: 'Your invite link' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Show QR code' })).toBeDisabled();

    await expect
      .poll(boardRows)
      .toEqual(['1 amy invited you 80', '2 me_player you 40', '3 bob 10']);
    expect(
      within(screen.getByTestId('friends-board'))
        .getAllByRole('listitem')
        .map((item) => item.getAttribute('aria-current')),
    ).toEqual([null, 'true', null]);
    expect(
      screen.getByText(
        `You both get ${(5000).toLocaleString()} points once they have played a little.`,
      ),
    ).toBeTruthy();
    // Nobody invited yet: no list of invitations.
    expect(screen.queryByRole('heading', { name: 'Your invitations' })).toBeNull();

    invite.resolve(json(api.invite));
    expect((await linkBox()).value).toBe(WEB_LINK());
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Show QR code' })).toBeEnabled();
  });

  it('lists each invitation with its state and what it means', async () => {
    stubFriendsApi(
      server({
        invitations: {
          rules: { taps: 1000, days: 2, dailyCap: 5, bonus: 5000 },
          invitations: [
            invitation(1, { state: 'joined' }),
            // Over the threshold on taps, short on days: the progress stops at the threshold.
            invitation(2, { state: 'playing', taps: 1500, days: 1 }),
            invitation(3, { state: 'waiting', taps: 1200, days: 2, reason: referralWaitingReason }),
            invitation(4, { state: 'paid', taps: 1000, days: 2, paidAt: '2026-03-04T09:00:00Z' }),
            invitation(5, {
              state: 'cancelled',
              reason: referralCancelReasons.inviteeFrozen('scripted taps'),
            }),
          ],
        },
      }),
    );
    renderCard();
    expect(await screen.findByRole('heading', { name: 'Your invitations' })).toBeTruthy();
    const k = (n: number) => n.toLocaleString();
    expect(invitationRows()).toEqual([
      `guest1 · Joined · No taps yet: ${k(1000)} taps over 2 days pay you both`,
      `guest2 · Playing · ${k(1000)} / ${k(1000)} taps, 1 / 2 days`,
      `guest3 · Waiting · ${referralWaitingReason}`,
      `guest4 · Paid · +${k(5000)} points each`,
      `guest5 · Cancelled · The invited player was frozen: scripted taps`,
    ]);
  });

  it('shows the board’s hint while the player is alone on it, and keeps the card when the invitations are refused', async () => {
    const api = server({ board: { season: 3, rows: [] } });
    api.override = {
      [`GET /api/users/${ME}/invitations`]: () => json({ error: 'Try again later' }, 503),
    };
    stubFriendsApi(api);
    renderCard();
    expect(await screen.findByText('Just you so far')).toBeTruthy();
    expect(screen.getByText('Invite a friend or add one by name')).toBeTruthy();
    expect((await linkBox()).value).toBe(WEB_LINK());
    // No rules read: no bonus promised, no invitations listed.
    expect(screen.queryByText(/You both get/)).toBeNull();
    expect(screen.queryByTestId('invitations')).toBeNull();
  });

  it('copies the link where the device cannot share, says so, and is ready again after a moment', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const writeText = stubClipboard();
    stubFriendsApi(server());
    renderCard();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    // userEvent.setup puts its own clipboard in; the device's is the one the test watches.
    stubClipboard(writeText);
    await linkBox();
    await user.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(WEB_LINK());
    expect(screen.getByTestId('invite-copy').textContent).toBe('Copied');
    expect(screen.getByText('Copied: paste the link to your friends.')).toBeTruthy();

    await vi.advanceTimersByTimeAsync(2400);
    expect(screen.getByTestId('invite-copy').textContent).toBe('Copied');
    await vi.advanceTimersByTimeAsync(100);
    await expect.poll(() => screen.getByTestId('invite-copy').textContent).toBe('Copy link');
    expect(inviteStatus().textContent).toBe('');
  });

  it('asks the player to copy the link by hand when the device refuses the clipboard', async () => {
    stubClipboard(async () => {
      throw new DOMException('Write permission denied.', 'NotAllowedError');
    });
    stubFriendsApi(server());
    renderCard();
    await linkBox();
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(
      await screen.findByText('Copying is not allowed here: select the link and copy it.'),
    ).toBeTruthy();
    expect(screen.getByTestId('invite-copy').textContent).toBe('Copy link');
    // Focused, the link is selected whole, ready to copy by hand.
    const box = await linkBox();
    await userEvent.click(box);
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, WEB_LINK().length]);
  });

  it('shares the link through the device’s share sheet where it has one', async () => {
    const share = stubShare(async () => undefined);
    const writeText = stubClipboard();
    stubFriendsApi(server());
    renderCard();
    await linkBox();
    expect(screen.queryByRole('button', { name: 'Copy link' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ title: 'TapGram', text: SHARE_TEXT, url: WEB_LINK() });
    expect(writeText).not.toHaveBeenCalled();
    expect(inviteStatus().textContent).toBe('');
  });

  it('says nothing when the player closes the share sheet, and copies when the device refuses it', async () => {
    const share = stubShare(async () => {
      throw new DOMException('Share canceled', 'AbortError');
    });
    const writeText = stubClipboard();
    stubFriendsApi(server());
    renderCard();
    await linkBox();
    const shareButton = screen.getByRole('button', { name: 'Share' });
    await userEvent.click(shareButton);
    expect(share).toHaveBeenCalledTimes(1);
    expect(writeText).not.toHaveBeenCalled();

    share.mockRejectedValue(new DOMException('Not allowed', 'NotAllowedError'));
    await userEvent.click(shareButton);
    expect(await screen.findByText('Copied: paste the link to your friends.')).toBeTruthy();
    // Copied once: for the refusal, not for the closed sheet.
    expect(writeText.mock.calls).toEqual([[WEB_LINK()]]);
  });

  it('shows and hides a QR code of the link', async () => {
    stubFriendsApi(server());
    renderCard();
    await linkBox();
    const toggle = screen.getByRole('button', { name: 'Show QR code' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(toggle);
    expect(toggle.textContent).toBe('Hide QR code');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const qr = await screen.findByRole('img', { name: 'QR code of your invite link' });
    await expect.poll(() => qr.querySelectorAll('svg').length).toBe(1);

    await userEvent.click(toggle);
    expect(toggle.textContent).toBe('Show QR code');
    expect(screen.queryByRole('img', { name: 'QR code of your invite link' })).toBeNull();
  });

  it("in Telegram's Mini App, gives the Mini App's link and shares it through Telegram", async () => {
    telegram.inside = true;
    const share = stubShare(async () => undefined);
    stubFriendsApi(server({ config: { ...GAME_CONFIG, telegramAppUrl: TELEGRAM_APP } }));
    renderCard();
    const link = `${TELEGRAM_APP}?startapp=${CODE}`;
    await expect.poll(async () => (await linkBox()).value).toBe(link);
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect(telegram.shared).toEqual([[link, SHARE_TEXT]]);
    expect(share).not.toHaveBeenCalled();
  });

  it("in Telegram before its share sheet is up, and without the device's, copies the Mini App's link", async () => {
    Object.assign(telegram, { inside: true, shellUp: false });
    const writeText = stubClipboard();
    stubFriendsApi(server({ config: { ...GAME_CONFIG, telegramAppUrl: TELEGRAM_APP } }));
    renderCard();
    const link = `${TELEGRAM_APP}?startapp=${CODE}`;
    await expect.poll(async () => (await linkBox()).value).toBe(link);
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    await expect.poll(() => writeText.mock.calls).toEqual([[link]]);
  });

  it('gives the web link in a browser, even when the game also runs in Telegram', async () => {
    stubFriendsApi(server({ config: { ...GAME_CONFIG, telegramAppUrl: TELEGRAM_APP } }));
    renderCard();
    await expect.poll(() => screen.queryByText(/You both get/)).not.toBeNull();
    expect((await linkBox()).value).toBe(WEB_LINK());
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
  });

  it("reads the board again when the season's boards move, and the invitations when a friend's points did", async () => {
    const api = server({
      invitations: {
        rules: { taps: 1000, days: 2, dailyCap: 5, bonus: 5000 },
        invitations: [invitation(1, { invitee: amy, state: 'joined' })],
      },
    });
    const calls = stubFriendsApi(api);
    renderCard();
    await expect.poll(boardRows).toContain('1 amy invited you 80');
    expect(invitationRows()[0]).toMatch(/^amy · Joined/);
    const invitations = `/api/users/${ME}/invitations`;
    expect(calls.calls('GET', invitations)).toBe(1);

    // Amy taps: the season's boards move, and her points on the friends board with them.
    api.board = board(95);
    api.invitations = {
      ...api.invitations,
      invitations: [invitation(1, { invitee: amy, state: 'playing', taps: 15, days: 1 })],
    };
    const delta = { from: 1, v: 2, users: [[0, 15]] };
    checkPush(gameEvents.seasonDelta, delta);
    channel.fire(gameEvents.seasonDelta, delta);
    await expect.poll(boardRows).toContain('1 amy invited you 95');
    await expect.poll(() => invitationRows()[0]).toMatch(/^amy · Playing · 15 \//);
    expect(calls.calls('GET', `/api/users/${ME}/friends/board`)).toBe(2);
    expect(calls.calls('GET', invitations)).toBe(2);
  });

  it('reads the friends, the board and the invitations again when the server says they changed, and stops listening once gone', async () => {
    const api = server();
    const calls = stubFriendsApi(api);
    const { unmount } = renderCard();
    await expect.poll(boardRows).toHaveLength(3);
    expect(screen.queryByRole('list', { name: 'Friend requests for you' })).toBeNull();

    // On another device the player accepted Eve, and Bob came by their invite link.
    const eve: Friend = { id: '00000000-0000-4000-8000-00000000000e', username: 'eve' };
    api.friends = { ...api.friends, friends: [bob, eve] };
    api.board = {
      season: 3,
      rows: [
        ...board(80).rows,
        { id: eve.id, username: 'eve', points: 0, rank: 4, relation: 'friend' },
      ],
    };
    api.invitations = { ...api.invitations, invitations: [invitation(1, { invitee: bob })] };
    const boardReads = calls.calls('GET', `/api/users/${ME}/friends/board`);
    channel.fire(gameEvents.friends);
    expect(await screen.findByText('Your friends (2)')).toBeTruthy();
    await expect.poll(boardRows).toContain('4 eve 0');
    // One read of the board for one push (the friends' key is a prefix of the board's).
    expect(calls.calls('GET', `/api/users/${ME}/friends/board`)).toBe(boardReads + 1);
    await expect.poll(() => screen.queryByTestId('invitations')).not.toBeNull();
    expect(invitationRows()[0]).toMatch(/^bob · Joined/);

    unmount();
    expect(channel.listeners()).toBe(0);
    const read = calls.calls('GET', `/api/users/${ME}/friends`);
    channel.fire(gameEvents.friends);
    expect(calls.calls('GET', `/api/users/${ME}/friends`)).toBe(read);
  });

  it('reads the bonus history only once it is opened', async () => {
    const api = server({
      bonuses: [
        {
          kind: 'referral',
          at: '2026-03-04T09:00:00.000Z',
          points: 5000,
          state: 'added',
          reason: 'guest1 joined',
        },
        {
          kind: 'streak',
          at: '2026-03-03T09:00:00.000Z',
          points: 20,
          state: 'cancelled',
          reason: 'Frozen',
        },
      ],
    });
    const calls = stubFriendsApi(api);
    renderCard();
    await linkBox();
    expect(calls.calls('GET', `/api/users/${ME}/bonuses`)).toBe(0);
    await userEvent.click(screen.getByText('Bonus history'));
    const history = screen.getByTestId('bonus-history');
    await expect
      .poll(() =>
        within(history)
          .queryAllByRole('listitem')
          .map((item) => item.lastChild?.textContent),
      )
      .toEqual([`+${(5000).toLocaleString()}`, 'cancelled']);
  });
});
