import { z } from 'zod';

/** Every error the API answers has this shape. */
export const errorBodySchema = z.object({ error: z.string() });
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const healthSchema = z.object({ status: z.literal('ok') });
/**
 * `/readyz`. A check is `behind` when what it names holds data older than Postgres's (the game's
 * Redis counters of a generation Postgres no longer follows): the node refuses that work.
 */
export const readinessSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.record(z.string(), z.enum(['ok', 'down', 'not configured', 'behind'])),
});
export type Readiness = z.infer<typeof readinessSchema>;
export type ReadinessCheck = Readiness['checks'][string];
