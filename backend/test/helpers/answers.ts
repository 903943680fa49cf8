import { expect } from 'vitest';
import type { z } from 'zod';

/**
 * Checks a real answer against the shared schema of its endpoint: it parses, and the schema names
 * every field the answer carries (parsing drops unnamed ones), so the contract cannot drift from
 * the server. Answers the parsed body.
 */
export function expectAnswer<Schema extends z.ZodType>(
  schema: Schema,
  body: unknown,
): z.output<Schema> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new Error(
      `The answer does not match its schema: ${JSON.stringify(body)}\n${result.error}`,
    );
  }
  expect(result.data, 'the answer carries fields its schema does not name').toEqual(body);
  return result.data;
}
