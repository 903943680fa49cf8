// @vitest-environment happy-dom
import type { InviteeTiming } from '@tapgram/shared';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { SharedTimingEvidence } from '../../src/features/admin/SharedTimingEvidence';

const invitee = (n: number, timing: Partial<InviteeTiming> = {}): InviteeTiming => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  username: `bot_${n}`,
  day: '2026-11-23',
  batches: 12,
  intervalMs: 1500,
  intervalVariation: 0,
  startedAt: '2026-11-23T08:00:01.000Z',
  stoppedAt: '2026-11-23T08:00:19.000Z',
  ...timing,
});

afterEach(cleanup);

describe("the operators' shared-timing evidence", () => {
  it('shows nothing without a group', () => {
    const { container } = render(
      <MemoryRouter>
        <SharedTimingEvidence groups={[]} back="/admin" />
      </MemoryRouter>,
    );
    expect(container.textContent).toBe('');
  });

  it('explains each group and gives each invited player its figures and page', () => {
    render(
      <MemoryRouter>
        <SharedTimingEvidence
          back="/admin"
          groups={[
            { kind: 'rhythm', count: 4, invitees: [invitee(1), invitee(2, { batches: 1200 })] },
            { kind: 'together', count: 3, invitees: [invitee(3)] },
          ]}
        />
      </MemoryRouter>,
    );
    const rhythm = screen.getByRole('heading', {
      name: 'Same machine-like rhythm: 4 invited players',
    }).parentElement!;
    expect(within(rhythm).getByText(/almost exactly the same interval/)).toBeTruthy();
    const rows = within(rhythm).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      '@bot_1 a batch every 1.50 s, varying 0.0%, 12 batches on Nov 23',
      '@bot_2 a batch every 1.50 s, varying 0.0%, 1,200 batches on Nov 23',
    ]);
    expect(within(rhythm).getByText('and 2 more')).toBeTruthy();
    expect(within(rhythm).getByRole('link', { name: '@bot_1' }).getAttribute('href')).toBe(
      `/admin/players/${invitee(1).id}`,
    );

    const together = screen.getByRole('heading', {
      name: 'Started and stopped together: 3 invited players',
    }).parentElement!;
    expect(within(together).getByText(/within 10 seconds of each other/)).toBeTruthy();
    expect(within(together).getByRole('listitem').textContent).toBe(
      '@bot_3 tapped 08:00:01–08:00:19 UTC, 12 batches on Nov 23',
    );
  });
});
