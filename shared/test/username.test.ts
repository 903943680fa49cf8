import { describe, expect, it } from 'vitest';
import { firstIssueMessage, usernameError, usernameSchema } from '../src';

/** What the schema says of `raw`: null when it passes, else its first message. */
function schemaSays(raw: string): string | null {
  const result = usernameSchema.safeParse(raw);
  return result.success ? null : firstIssueMessage(result.error);
}

describe('the welcome dialog checks a username as the server does', () => {
  it.each([
    '',
    '   ',
    'ab',
    ' ab ',
    'abc',
    ' abc ',
    'a'.repeat(20),
    ` ${'a'.repeat(20)} `,
    'a'.repeat(21),
    'Tap_Master-9',
    'bad name',
    'émile',
    'semi;colon',
    'nul\u0000name',
    'half\uD800',
    '\uDC00half',
    'emoji😂ok',
    '😂😂',
    '😂'.repeat(11),
    `ab${'😂'.repeat(9)}`,
  ])('%j gets the same answer from the check and from the schema', (raw) => {
    expect(usernameError(raw)).toBe(schemaSays(raw));
  });
});
