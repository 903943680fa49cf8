import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, createUserBodySchema, firstIssueMessage, messages } from '../src';

function countryProblem(country: string): string | null {
  const result = createUserBodySchema.safeParse({ username: 'tapper', country });
  return result.success ? null : firstIssueMessage(result.error);
}

describe('the country of a new player', () => {
  it('is one of about 250 two-letter codes', () => {
    expect(COUNTRY_CODES.length).toBe(250);
    expect(new Set(COUNTRY_CODES).size).toBe(COUNTRY_CODES.length);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
  });

  it.each(['GB', 'us', ' jp ', 'XK', 'NZ'])('accepts %j', (country) => {
    expect(countryProblem(country)).toBeNull();
  });

  it.each(['XX', 'ZZ', 'EU', 'UK', 'AA'])('refuses %j, which names no country', (country) => {
    expect(countryProblem(country)).toBe(messages.unknownCountry);
  });

  it.each(['GBR', 'G', '', '12'])('refuses %j, which is not a two-letter code', (country) => {
    expect(countryProblem(country)).toBe(messages.countryCode);
  });
});
