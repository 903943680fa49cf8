import { z } from 'zod';
import { gameUserSchema } from './game';
import { countryCodeSchema } from './validation';

/** Days between two country changes of a player unless COUNTRY_CHANGE_DAYS says otherwise. */
export const DEFAULT_COUNTRY_CHANGE_DAYS = 30;

/** PATCH /api/users/me/country: the country the signed player plays for from now on. */
export const changeCountryBodySchema = z.object({ country: countryCodeSchema });
export type ChangeCountryBody = z.infer<typeof changeCountryBodySchema>;

/**
 * Its answer: the player as they now are; `changed` false when it was their country already
 * (nothing moved); `nextChangeAt` when they may change it again (null: at any time).
 */
export const changeCountryResultSchema = z.object({
  user: gameUserSchema,
  changed: z.boolean(),
  nextChangeAt: z.string().nullable(),
});
export type ChangeCountryResult = z.infer<typeof changeCountryResultSchema>;

/** A moment as the refusals write it: `2026-12-28 at 14:03 UTC`. */
export function utcMinute(at: Date): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} at ${iso.slice(11, 16)} UTC`;
}

/** The refusal (429) of a change too soon after the last one, naming when the next is possible. */
export function countryChangeTooSoon(nextChangeAt: Date): string {
  return `You changed your country recently: you can change it again on ${utcMinute(nextChangeAt)}`;
}
