// @vitest-environment happy-dom
import type { Streak } from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StreakCard } from '../../src/features/game/streak/StreakCard';
import { createQueryClient } from '../../src/lib/query-client';

const ID = '11111111-1111-4111-8111-111111111111';

const streak = (today: string, over: Partial<Streak> = {}): Streak => ({
  today,
  todayTaps: 0,
  dailyTaps: 10,
  streak: 1,
  claimedToday: false,
  bonus: 20,
  bonusCap: 100,
  claims: [],
  ...over,
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the streak card', () => {
  it('reads the streak again as a new UTC day starts: yesterday’s claim gives way to today’s button', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-11-28T23:58:00Z'));
    const answers = [
      streak('2026-11-28', {
        todayTaps: 12,
        claimedToday: true,
        bonus: 10,
        claims: [{ day: '2026-11-28', streak: 1, points: 10, claimedAt: '' }],
      }),
      streak('2026-11-29'),
    ];
    const fetch = vi.fn(async () => Response.json(answers.shift() ?? answers.at(-1)));
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <StreakCard userId={ID} totalTaps={12} frozen={false} />
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('streak-claimed')).textContent).toBe('+10 claimed today');
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    const button = await screen.findByRole('button', { name: 'Claim +20' });
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('streak-today').textContent).toBe('0 / 10 taps');
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("follows today's taps from the counted taps, without a call per tap", async () => {
    const fetch = vi.fn(async () => Response.json(streak(new Date().toISOString().slice(0, 10))));
    vi.stubGlobal('fetch', fetch);
    const client = createQueryClient();
    const card = (totalTaps: number) => (
      <QueryClientProvider client={client}>
        <StreakCard userId={ID} totalTaps={totalTaps} frozen={false} />
      </QueryClientProvider>
    );
    const { rerender } = render(card(100));
    expect((await screen.findByTestId('streak-today')).textContent).toBe('0 / 10 taps');
    rerender(card(104));
    expect(screen.getByTestId('streak-today').textContent).toBe('4 / 10 taps');
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
