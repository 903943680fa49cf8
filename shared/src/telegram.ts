import { z } from 'zod';
import { gameUserSchema } from './game';
import { TELEGRAM_INIT_DATA_MAX_LENGTH } from './telegram-links';
import { countryCodeSchema, text } from './validation';

// The plain values live apart, so that a screen that only builds a link does not load zod.
export {
  TELEGRAM_INIT_DATA_MAX_LENGTH,
  TELEGRAM_LINK_CODE_MINUTES,
  TELEGRAM_LINK_START_PREFIX,
  telegramStartLink,
} from './telegram-links';

/**
 * POST /api/telegram/session: the init data Telegram handed the Mini App, as it came
 * (`tgWebAppData`), and on a first launch the country the player chose.
 */
export const telegramSessionBodySchema = z.object({
  initData: text()
    .min(1, 'initData is required')
    .max(TELEGRAM_INIT_DATA_MAX_LENGTH, 'initData is too long'),
  country: countryCodeSchema.optional(),
});
export type TelegramSessionBody = z.infer<typeof telegramSessionBodySchema>;

/** What became of a link code the launch carried; absent when it carried none. */
export const telegramLinkOutcomeSchema = z.union([
  z.object({ ok: z.literal(true) }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type TelegramLinkOutcome = z.infer<typeof telegramLinkOutcomeSchema>;

/**
 * The answer: signed in (the player cookie is set; 201 when this launch made the player), or, on
 * the first launch of a Telegram user, the name they will play under and a request for their
 * country (the same call again with `country` makes the player).
 */
export const telegramSessionAnswerSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('signed-in'),
    user: gameUserSchema,
    created: z.boolean(),
    link: telegramLinkOutcomeSchema.optional(),
  }),
  z.object({
    status: z.literal('needs-country'),
    username: z.string(),
    link: telegramLinkOutcomeSchema.optional(),
  }),
]);
export type TelegramSessionAnswer = z.infer<typeof telegramSessionAnswerSchema>;

/**
 * POST /api/telegram/link-codes: a code for the web player of the request's cookie, and the
 * Mini App link that carries it (open it in Telegram to link), valid until `expiresAt`.
 */
export const telegramLinkCodeSchema = z.object({
  code: z.string(),
  link: z.string(),
  expiresAt: z.string(),
});
export type TelegramLinkCode = z.infer<typeof telegramLinkCodeSchema>;

/** GET /api/telegram/link: whether the web player of the request's cookie opens in Telegram. */
export const telegramLinkStatusSchema = z.object({ linked: z.boolean() });
export type TelegramLinkStatus = z.infer<typeof telegramLinkStatusSchema>;
