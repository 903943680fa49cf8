// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countryFlagUrl, KNOWN_COUNTRY_CODES } from '../../src/lib/countries';
import { MilestoneBanner } from '../../src/features/game/MilestoneBanner';
import { WelcomeDialog } from '../../src/features/game/WelcomeDialog';

// Flag emoji are pairs of regional indicators; pictographs cover 🌍, 🏆 and the like.
const EMOJI = /[\p{Regional_Indicator}\p{Extended_Pictographic}]/u;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

/** The browser's time zone, as Intl reports it. */
function inTimeZone(timeZone: string) {
  const real = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
    this: Intl.DateTimeFormat,
  ) {
    return { ...real.call(this), timeZone };
  });
}

function renderDialog() {
  const onCreate = vi.fn<(username: string, country: string) => Promise<void>>(async () => {});
  render(<WelcomeDialog open onCreate={onCreate} />);
  const chooser = screen.getByLabelText<HTMLSelectElement>('Country');
  return { onCreate, chooser };
}

describe('the welcome dialog lets the player choose their country', () => {
  it.each([
    ['America/Sao_Paulo', 'US', 'United States'],
    ['America/New_York', 'US', 'United States'],
    ['Europe/Berlin', 'GB', 'United Kingdom'],
    ['Asia/Tokyo', 'GB', 'United Kingdom'],
  ])('in the time zone %s it starts at %s', (timeZone, code, name) => {
    inTimeZone(timeZone);
    const { chooser } = renderDialog();
    expect(chooser.value).toBe(code);
    expect(chooser.selectedOptions[0].textContent).toBe(name);
  });

  it('lists every country once, by name, in the order of the names', () => {
    const { chooser } = renderDialog();
    const options = [...chooser.options];
    expect(options.map((o) => o.value).sort()).toEqual([...KNOWN_COUNTRY_CODES].sort());
    const names = options.map((o) => o.textContent ?? '');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(names).toContain('Japan');
    expect(names).toContain('Germany');
    expect(names.join('')).not.toMatch(EMOJI);
  });

  it("draws the chosen country's flag as an image and sends the chosen code", async () => {
    inTimeZone('Europe/Paris');
    const { onCreate, chooser } = renderDialog();
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByTestId('flag-GB').getAttribute('src')).toBe(countryFlagUrl('GB'));

    await userEvent.selectOptions(chooser, 'FR');
    expect(within(dialog).getByTestId('flag-FR').getAttribute('src')).toBe(countryFlagUrl('FR'));
    expect(within(dialog).queryByTestId('flag-GB')).toBeNull();
    expect(dialog.textContent).not.toMatch(EMOJI);

    await userEvent.type(screen.getByLabelText('Username', { exact: true }), 'parisien');
    await userEvent.click(screen.getByRole('button', { name: 'Start Playing!' }));
    expect(onCreate).toHaveBeenCalledWith('parisien', 'FR');
  });

  it('keeps the chooser still while the player is being created', async () => {
    let finish: () => void = () => undefined;
    const onCreate = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    render(<WelcomeDialog open onCreate={onCreate} />);
    await userEvent.type(screen.getByLabelText('Username', { exact: true }), 'tapper');
    await userEvent.click(screen.getByRole('button', { name: 'Start Playing!' }));
    expect(screen.getByLabelText('Country').hasAttribute('disabled')).toBe(true);
    finish();
    expect(await screen.findByRole('button', { name: 'Start Playing!' })).toBeTruthy();
    expect(screen.getByLabelText('Country').hasAttribute('disabled')).toBe(false);
  });
});

describe('the milestone banner', () => {
  it.each([undefined, { usersOver100k: 2 }, { usersOver100k: 5 }])(
    'draws its trophy as an icon, not an emoji (%j)',
    (milestone) => {
      render(<MilestoneBanner milestone={milestone} />);
      const banner = screen.getByTestId('milestone-banner');
      expect(within(banner).getByTestId('milestone-trophy').tagName.toLowerCase()).toBe('svg');
      expect(banner.textContent).not.toMatch(EMOJI);
    },
  );
});
