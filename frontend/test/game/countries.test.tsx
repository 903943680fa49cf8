import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countryFlagUrl,
  countryName,
  defaultCountry,
  KNOWN_COUNTRY_CODES,
} from '../../src/lib/countries';
import { StatTiles } from '../../src/features/game/StatTiles';
import { DEFAULT_COUNTRY } from '../../src/lib/ui-constants';

afterEach(cleanup);

describe('the country default at creation', () => {
  it.each(['America/New_York', 'America/Argentina/Buenos_Aires', 'America/Sao_Paulo'])(
    'is US in the time zone %s',
    (timeZone) => {
      expect(defaultCountry(timeZone)).toBe('US');
    },
  );

  it.each(['Europe/London', 'Europe/Paris', 'Asia/Tokyo', 'UTC'])(
    'is GB in the time zone %s',
    (timeZone) => {
      expect(defaultCountry(timeZone)).toBe('GB');
    },
  );
});

describe('country names and flags', () => {
  it('maps about 150 codes to a name and a flag', () => {
    expect(KNOWN_COUNTRY_CODES.length).toBeGreaterThanOrEqual(140);
    expect(countryName('FR')).toBe('France');
    // Flags are images, not emoji (which show as letters on Windows).
    expect(countryFlagUrl('FR')).toMatch(/^\/assets\/flags-[0-9a-f]{8}\/FR\.svg$/);
    for (const code of KNOWN_COUNTRY_CODES) {
      expect(countryName(code)).not.toBe(code);
      expect(countryFlagUrl(code)).toMatch(new RegExp(`/${code}\\.svg$`));
    }
  });

  it("shows the flag of the player's country as an image in the tile", () => {
    render(<StatTiles sessionPoints={0} totalTaps={0} rank={undefined} country="FR" />);
    const tile = screen.getByTestId('stat-Country');
    expect(tile).toHaveTextContent('FR');
    expect(within(tile).getByTestId('flag-FR').getAttribute('src')).toBe(countryFlagUrl('FR'));
    expect(tile.textContent).not.toMatch(/\p{Regional_Indicator}/u);
  });

  it('shows a globe and the raw code for an unknown code', () => {
    expect(countryName('XX')).toBe('XX');
    expect(countryFlagUrl('XX')).toBeNull();
    render(<StatTiles sessionPoints={0} totalTaps={0} rank={undefined} country="XX" />);
    const tile = screen.getByTestId('stat-Country');
    expect(tile).toHaveTextContent('XX');
    expect(within(tile).getByTestId('flag-globe')).toBeInTheDocument();
  });

  it('shows the default country before the player is loaded', () => {
    render(<StatTiles sessionPoints={0} totalTaps={0} rank={undefined} country={undefined} />);
    expect(screen.getByTestId('stat-Country')).toHaveTextContent(DEFAULT_COUNTRY);
    expect(screen.getByTestId('stat-Rank')).toHaveTextContent('#1');
  });
});
