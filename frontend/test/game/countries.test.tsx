import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countryFlag,
  countryName,
  defaultCountry,
  KNOWN_COUNTRY_CODES,
} from '../../src/features/game/countries';
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
    expect(countryFlag('FR')).toBe('🇫🇷');
  });

  it('shows a globe and the raw code for an unknown code', () => {
    expect(countryName('XX')).toBe('XX');
    expect(countryFlag('XX')).toBe('🌍');
    render(<StatTiles sessionPoints={0} totalTaps={0} rank={undefined} country="XX" />);
    expect(screen.getByTestId('stat-Country')).toHaveTextContent('🌍 XX');
  });

  it('shows the default country before the player is loaded', () => {
    render(<StatTiles sessionPoints={0} totalTaps={0} rank={undefined} country={undefined} />);
    expect(screen.getByTestId('stat-Country')).toHaveTextContent(DEFAULT_COUNTRY);
    expect(screen.getByTestId('stat-Rank')).toHaveTextContent('#1');
  });
});
