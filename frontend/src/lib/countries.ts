import { COUNTRY_CODES, isCountryCode } from '@tapgram/shared';

// English names, as the rest of the screens speak English.
const NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** The countries the game names and draws a flag for; any other code shows as it is, by a globe. */
export const KNOWN_COUNTRY_CODES = COUNTRY_CODES;

export function countryName(code: string): string {
  return (isCountryCode(code) && NAMES.of(code)) || code;
}

/** The flag's image, or null for a code that names no country (it shows a globe). */
export function countryFlagUrl(code: string): string | null {
  return isCountryCode(code) ? `${__FLAGS_URL__}${code}.svg` : null;
}

export interface CountryOption {
  code: string;
  name: string;
}

let options: CountryOption[] | undefined;

/** Every country, in the order of their names, for the welcome dialog's chooser. */
export function countryOptions(): CountryOption[] {
  options ??= KNOWN_COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
  return options;
}

/** The country a new player gets: US when the browser's time zone is in the Americas, otherwise GB. */
export function defaultCountry(
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  return timeZone.includes('America') ? 'US' : 'GB';
}
