import { z } from 'zod';

/** Every error the API answers has this shape. */
export const errorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const healthSchema = z.object({ status: z.literal('ok') });
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.enum(['ok', 'down', 'not configured'])),
});
export type Readiness = z.infer<typeof readinessSchema>;
