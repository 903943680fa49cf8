import { describe, expect, it } from 'vitest';
import {
  createUserBodySchema,
  firstIssueMessage,
  leaderboardQuerySchema,
  messages,
  tapBodySchema,
  updateProfileBodySchema,
  usernameError,
} from '../src';

describe('game username rules: trimmed, 3 to 20 letters, digits, _ or -', () => {
  it.each([
    ['ab', messages.usernameTooShort],
    ['  ab  ', messages.usernameTooShort],
    ['a'.repeat(21), messages.usernameTooLong],
    ['bad name', messages.usernameCharacters],
    ['émile', messages.usernameCharacters],
    ['semi;colon', messages.usernameCharacters],
  ])('refuses %j with its message', (input, message) => {
    expect(usernameError(input)).toBe(message);
  });

  it.each(['abc', 'a'.repeat(20), 'Tap_Master-9', '  padded  '])('accepts %j', (input) => {
    expect(usernameError(input)).toBeNull();
  });

  it('keeps the exact texts of the spec', () => {
    expect(messages.usernameTooShort).toBe('Username must be at least 3 characters long');
    expect(messages.usernameTooLong).toBe('Username must be 20 characters or less');
    expect(messages.usernameCharacters).toBe(
      'Username can only contain letters, numbers, underscores, and hyphens',
    );
  });
});

describe('game request bodies', () => {
  it('trims the username and upper-cases the country', () => {
    expect(createUserBodySchema.parse({ username: ' tapper ', country: 'gb' })).toEqual({
      username: 'tapper',
      country: 'GB',
    });
  });

  it('refuses a country that is not a two-letter code', () => {
    const result = createUserBodySchema.safeParse({ username: 'tapper', country: 'GBR' });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstIssueMessage(result.error)).toBe(messages.countryCode);
  });

  it('refuses pointsPerTap other than 1', () => {
    const body = { userId: crypto.randomUUID(), sessionId: crypto.randomUUID() };
    expect(tapBodySchema.safeParse({ ...body, pointsPerTap: 1 }).success).toBe(true);
    const result = tapBodySchema.safeParse({ ...body, pointsPerTap: 1000 });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstIssueMessage(result.error)).toBe('pointsPerTap must be 1');
  });

  it('names the field when zod speaks generically', () => {
    const result = tapBodySchema.safeParse({ pointsPerTap: 1 });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstIssueMessage(result.error)).toMatch(/^userId: Invalid input/);
  });

  it('defaults the leaderboard limit to 100 and caps it at 1000', () => {
    expect(leaderboardQuerySchema.parse({})).toEqual({ limit: 100 });
    expect(leaderboardQuerySchema.parse({ limit: '5' })).toEqual({ limit: 5 });
    expect(leaderboardQuerySchema.safeParse({ limit: '1001' }).success).toBe(false);
    expect(leaderboardQuerySchema.safeParse({ limit: '0' }).success).toBe(false);
  });
});

describe('profile rules', () => {
  it('limits the bio to 150 characters', () => {
    expect(
      updateProfileBodySchema.safeParse({ username: 'alice', bio: 'x'.repeat(150) }).success,
    ).toBe(true);
    const result = updateProfileBodySchema.safeParse({ username: 'alice', bio: 'x'.repeat(151) });
    expect(result.success).toBe(false);
    if (!result.success) expect(firstIssueMessage(result.error)).toBe(messages.bioTooLong);
  });
});
