import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { chromiumPath, shoot, WITHOUT_SERVICE_WORKER } from './browser';
import { viewportOptions } from './seed';
import { offlineAndOutOfEnergy, outOfEnergy, seededSuite, tapFast, until } from './setup';

/**
 * Holds IndexedDB's store of kept taps busy from inside the page (a read-write transaction kept
 * open), so that the game's own writes wait behind it: a page closed meanwhile is a page closed
 * between a tap and its write.
 */
function holdDeviceStorage(): Promise<void> {
  return new Promise((resolve, reject) => {
    const opened = indexedDB.open('tapgram');
    opened.onerror = () => reject(opened.error);
    opened.onsuccess = () => {
      const store = opened.result.transaction('kept-taps', 'readwrite').objectStore('kept-taps');
      const spin = () => {
        store.get('held').onsuccess = spin;
      };
      spin();
      resolve();
    };
  });
}

const executable = chromiumPath();
const PLAYER_COUNTRY = 'DE';
const SOCKET = /\/socket\.io\//;

/**
 * The game channel of a page, through the test: 'pass' lets it be, 'drop-taps' loses the tap
 * batches the page sends (as a connection that dies before they arrive), 'down' closes the
 * socket and refuses new ones and the long-polling fallback (a phone in a tunnel).
 */
type Channel = 'pass' | 'drop-taps' | 'down';

interface PlayerPage {
  context: BrowserContext;
  page: Page;
  userId: string;
  channel: { mode: Channel };
  /** Opens another page of the same browser (its storage and cookie) at /play. */
  reopen(): Promise<Page>;
}

/**
 * What the pages said and sent of their taps during a test (frames of the game channel, posts,
 * console errors), printed when the test fails: a miscount is read from it.
 */
const trail: string[] = [];
const note = (line: string) => {
  trail.push(`${new Date().toISOString().slice(11, 23)} ${line.slice(0, 240)}`);
  if (trail.length > 400) trail.shift();
};

async function controlChannel(page: Page, channel: { mode: Channel }) {
  const open = new Set<WebSocketRoute>();
  let connected = false;
  await page.routeWebSocket(SOCKET, (ws) => {
    if (channel.mode === 'down') {
      void ws.close();
      return;
    }
    open.add(ws);
    const server = ws.connectToServer();
    server.onMessage((message) => {
      // The server's answer to the page's connect: the channel carries taps from now on.
      if (/^40/.test(String(message))) connected = true;
      if (/^43/.test(String(message))) note(`ack ${String(message)}`);
      ws.send(message);
    });
    ws.onMessage((message) => {
      if (/^42\d*\["(tap|sync)"/.test(String(message))) note(`${channel.mode} ${String(message)}`);
      if (channel.mode === 'drop-taps' && /^42\d*\["tap"/.test(String(message))) return;
      if (channel.mode === 'down') return;
      server.send(message);
    });
    ws.onClose(() => {
      note('socket closed');
      open.delete(ws);
      if (open.size === 0) connected = false;
    });
  });
  await page.route(SOCKET, (route) =>
    channel.mode === 'down' ? route.abort('internetdisconnected') : route.continue(),
  );
  return {
    /**
     * Whether the page's game channel is connected over a WebSocket (its client loads once the
     * page is idle; until then the page posts its taps, which the channel's mode does not reach).
     */
    connected: () => connected,
    /** Closes the sockets open now. */
    closeAll: async () => {
      for (const ws of open) await ws.close();
      open.clear();
    },
  };
}

describe.runIf(executable)(
  'no tap is ever lost: kept on the device until the server has it',
  () => {
    const suite = seededSuite(executable!);
    let made = 0;
    beforeEach(({ onTestFailed }) => {
      trail.length = 0;
      onTestFailed(() => console.log(`What the pages did of their taps:\n${trail.join('\n')}`));
    });

    /** A new player, created by its browser, playing at `width` px. */
    async function newPlayer(width: number): Promise<PlayerPage & { closeAll(): Promise<void> }> {
      const context = await suite.browser.newContext({
        ...viewportOptions(width),
        baseURL: suite.site.url,
        reducedMotion: 'reduce',
        ...WITHOUT_SERVICE_WORKER,
      });
      made += 1;
      const created = await context.request.post('/api/users', {
        data: { username: `keeper_${process.pid % 1000}_${made}`, country: PLAYER_COUNTRY },
      });
      expect(created.status()).toBe(201);
      const userId = ((await created.json()) as { id: string }).id;
      await context.addInitScript((id) => {
        if (!localStorage.getItem('tapgram.game.userId')) {
          localStorage.setItem('tapgram.game.userId', id);
        }
      }, userId);
      const channel = { mode: 'pass' as Channel };
      let control: { closeAll(): Promise<void> } = { closeAll: async () => undefined };
      const openPage = async () => {
        const page = await context.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error') note(`console ${message.text()}`);
        });
        page.on('response', (response) => {
          if (response.url().includes('/api/tap')) note(`post ${response.status()}`);
        });
        page.on('requestfailed', (request) => {
          if (request.url().includes('/api/tap'))
            note(`post failed ${request.failure()?.errorText}`);
        });
        const opened = await controlChannel(page, channel);
        control = opened;
        await page.goto('/play');
        await playing(page);
        if (channel.mode !== 'down') await until(() => opened.connected()).toBe(true);
        return page;
      };
      const page = await openPage();
      return {
        context,
        page,
        userId,
        channel,
        reopen: openPage,
        closeAll: () => control.closeAll(),
      };
    }

    const playing = (page: Page) =>
      until(() => page.getByTestId('stat-Country').textContent()).toContain(PLAYER_COUNTRY);

    /** The player's total taps, as the server holds them. */
    const serverTotal = async (userId: string) => {
      const res = await fetch(`${suite.site.url}/api/users/${userId}`);
      return ((await res.json()) as { totalTaps: number }).totalTaps;
    };
    const status = (page: Page) => page.getByTestId('tap-status');

    it('keeps the taps made with the connection dropped, says so, and counts each once it is back', async () => {
      const player = await newPlayer(360);
      const { page, context } = player;
      await shoot(page, 'taps-normal-360');
      player.channel.mode = 'down';
      await player.closeAll();
      await context.setOffline(true);
      for (let i = 0; i < 10; i += 1) await page.getByTestId('tap-character').click();
      await until(() => status(page).getAttribute('data-state')).toBe('offline');
      await until(() => status(page).getAttribute('data-waiting')).toBe('10');
      expect(await status(page).textContent()).toContain('10 taps waiting');
      expect(await page.getByTestId('stat-Total Taps').textContent()).toBe('10');
      // No error per tap: the one line says it all.
      expect(await page.getByText('Failed to register tap').count()).toBe(0);
      await shoot(page, 'taps-offline-360');
      expect(await serverTotal(player.userId)).toBe(0);

      player.channel.mode = 'pass';
      await context.setOffline(false);
      await until(() => status(page).getAttribute('data-state')).toBe('synced');
      expect(await serverTotal(player.userId)).toBe(10);
      expect(await page.getByTestId('stat-Total Taps').textContent()).toBe('10');
      await shoot(page, 'taps-synced-360');
      await context.close();
    });

    it('counts the taps made just before a reload, each once', async () => {
      const player = await newPlayer(360);
      const { page } = player;
      // The batch leaves and is lost on the way: only the device holds the taps.
      player.channel.mode = 'drop-taps';
      for (let i = 0; i < 7; i += 1) await page.getByTestId('tap-character').click();
      await until(() => page.getByTestId('stat-Total Taps').textContent()).toBe('7');
      player.channel.mode = 'pass';
      await page.reload();
      await playing(page);
      await until(() => serverTotal(player.userId)).toBe(7);
      await until(() => page.getByTestId('stat-Total Taps').textContent()).toBe('7');
      // Sent once: more taps count from there.
      await page.getByTestId('tap-character').click();
      await until(() => serverTotal(player.userId)).toBe(8);
      await player.context.close();
    });

    it('counts the taps of a closed page when the game is opened again, in a new session', async () => {
      const player = await newPlayer(360);
      player.channel.mode = 'drop-taps';
      for (let i = 0; i < 6; i += 1) await player.page.getByTestId('tap-character').click();
      await until(() => player.page.getByTestId('stat-Total Taps').textContent()).toBe('6');
      const firstSession = await player.page.evaluate(() =>
        localStorage.getItem('tapgram.game.sessionId'),
      );
      await player.page.close();
      expect(await serverTotal(player.userId)).toBe(0);

      player.channel.mode = 'pass';
      const again = await player.reopen();
      await until(() => serverTotal(player.userId)).toBe(6);
      expect(await again.evaluate(() => localStorage.getItem('tapgram.game.sessionId'))).not.toBe(
        firstSession,
      );
      await until(() => again.getByTestId('stat-Total Taps').textContent()).toBe('6');
      await again.getByTestId('tap-character').click();
      await until(() => serverTotal(player.userId)).toBe(7);
      await player.context.close();
    });

    it('counts a tap made as the tab closed, before the device storage could write it', async () => {
      const player = await newPlayer(360);
      const { page } = player;
      player.channel.mode = 'drop-taps';
      await page.evaluate(holdDeviceStorage);
      // Taps, and the tab closed at once: no write of them reaches IndexedDB.
      await tapFast(page, 3);
      await page.close();
      expect(await serverTotal(player.userId)).toBe(0);

      player.channel.mode = 'pass';
      const again = await player.reopen();
      await until(() => serverTotal(player.userId)).toBe(3);
      await until(() => again.getByTestId('stat-Total Taps').textContent()).toBe('3');
      await player.context.close();
    });

    it('counts no more taps than the allowance holds, says the gauge is empty, and never goes back', async () => {
      for (const width of [360, 1280]) {
        const player = await newPlayer(width);
        const { page } = player;
        if (width === 1280) await shoot(page, `taps-normal-${width}`);
        const gauge = page.getByRole('meter', { name: 'Tap energy' });
        expect(await gauge.getAttribute('aria-valuemax')).toBe('40');
        const stopTapping = await outOfEnergy(page);
        await until(() => gauge.getAttribute('aria-valuetext')).toMatch(/^Empty/);
        await until(() => page.getByTestId('energy-gauge').textContent()).toContain('Empty');
        await shoot(page, `taps-gauge-empty-${width}`);
        const tapped = await stopTapping();
        // The burst and what refilled while the taps went in, not every tap made.
        const tile = async () => Number(await page.getByTestId('stat-Total Taps').textContent());
        // Every tap the screen counted reaches the server, and the counter never went back.
        await until(async () => (await serverTotal(player.userId)) - (await tile())).toBe(0);
        const shown = await tile();
        note(`online: the screen counts ${shown}`);
        expect(shown).toBeGreaterThanOrEqual(40);
        expect(shown).toBeLessThan(tapped);
        expect(Number(await page.getByTestId('stat-Total Taps').textContent())).toBe(shown);
        expect(await page.getByText('Failed to register tap').count()).toBe(0);
        if (width === 1280) {
          const stop = await offlineAndOutOfEnergy(page);
          await until(() =>
            page.getByRole('meter', { name: 'Tap energy' }).getAttribute('aria-valuenow'),
          ).toBe('0');
          await shoot(page, `taps-offline-${width}`);
          await stop();
          await player.context.setOffline(false);
          await until(() => status(page).getAttribute('data-state')).toBe('synced');
          const total = Number(await page.getByTestId('stat-Total Taps').textContent());
          note(`synced: the screen counts ${total}`);
          await until(() => serverTotal(player.userId)).toBe(total);
          await shoot(page, `taps-synced-${width}`);
        }
        await player.context.close();
      }
    });

    it('shows a frozen player as frozen on load, and an unfreeze live', async () => {
      const admin = await suite.browser.newContext({
        baseURL: suite.site.url,
        storageState: suite.site.member,
      });
      for (const width of [360, 1280]) {
        const player = await newPlayer(width);
        await player.page.close();
        const freeze = await admin.request.post(`/api/admin/game/players/${player.userId}/freeze`, {
          data: { reason: 'taps too regular' },
        });
        expect(freeze.status()).toBeLessThan(300);
        const page = await player.context.newPage();
        await page.goto('/play');
        // Before any tap: the banner, no rank, the character greyed.
        await until(() => page.getByTestId('game-frozen').isVisible()).toBe(true);
        expect(await page.getByTestId('stat-Rank').textContent()).toBe('—');
        expect(await page.getByTestId('tap-character').getAttribute('aria-disabled')).toBe('true');
        await shoot(page, `taps-frozen-${width}`);
        // A tap (the character is aria-disabled: forced) is not counted.
        await page.getByTestId('tap-character').click({ force: true });
        expect(await page.getByTestId('stat-Total Taps').textContent()).toBe('0');

        await admin.request.post(`/api/admin/game/players/${player.userId}/unfreeze`, {
          data: { reason: 'a person after all' },
        });
        await until(() => page.getByTestId('game-frozen').count()).toBe(0);
        await until(() => page.getByTestId('stat-Rank').textContent()).toMatch(/^#\d+$/);
        await page.getByTestId('tap-character').click();
        await until(() => serverTotal(player.userId)).toBe(1);
        await player.context.close();
      }
      await admin.close();
    });
  },
);
