import { COUNTRY_CODES, isCountryCode } from '@tapgram/shared';

// English names, as the rest of the screens speak English. Made at the first name asked for, not
// as the module loads: it loads the locale's data, tens of milliseconds on a phone.
let names: Intl.DisplayNames | undefined;
let collator: Intl.Collator | undefined;

/** The countries the game names and draws a flag for; any other code shows as it is, by a globe. */
export const KNOWN_COUNTRY_CODES = COUNTRY_CODES;

export function countryName(code: string): string {
  if (!isCountryCode(code)) return code;
  names ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return names.of(code) || code;
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
  // One collator for the whole sort: localeCompare with a locale makes one per comparison.
  collator ??= new Intl.Collator('en');
  const compare = collator.compare;
  options ??= KNOWN_COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) =>
    compare(a.name, b.name),
  );
  return options;
}

/** The country a new player gets: US when the browser's time zone is in the Americas, otherwise GB. */
export function defaultCountry(
  timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  return timeZone.includes('America') ? 'US' : 'GB';
}
