import { describe, expect, it } from 'vitest';
import { usernameError } from '@tapgram/shared';
import { baseUsername, usernameCandidates } from '../../../src/game/telegram/telegram-names';

describe('the name a Telegram user plays under', () => {
  it.each([
    [{ username: 'tess_tg', firstName: 'Tess' }, 'tess_tg'],
    [{ username: 'a_very_long_telegram_username_here', firstName: 'Tess' }, 'a_very_long_telegram'],
    [{ firstName: 'Zoë Ångström' }, 'Zoe_Angstrom'],
    [{ firstName: '  Jean-Luc   Picard ' }, 'Jean-Luc_Picard'],
    [{ firstName: 'Ян' }, 'player'],
    [{ firstName: '李小龍' }, 'player'],
    [{ firstName: 'Al' }, 'player'],
    [{ firstName: '__x__' }, 'player'],
    [{ firstName: '🙂 Bob 🙂' }, 'Bob'],
  ])('%o plays as %s', (profile, expected) => {
    expect(baseUsername(profile)).toBe(expected);
  });

  it('tries the name, numbered names, then random ones, each within the rules', () => {
    let seed = 0;
    const names = usernameCandidates('a_very_long_telegram', () => (seed += 0.123) % 1);
    expect(names.slice(0, 3)).toEqual([
      'a_very_long_telegram',
      'a_very_long_telegr_2',
      'a_very_long_telegr_3',
    ]);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(usernameError(name)).toBeNull();
    expect(names.at(-1)).toMatch(/^a_very_long_\d{8}$/);
  });
});
