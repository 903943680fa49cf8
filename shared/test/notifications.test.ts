import { describe, expect, it } from 'vitest';
import { actorsPhrase, notificationText } from '../src/notifications';

const named = (...names: string[]) => names.map((username) => ({ username }));

describe('notifications in words', () => {
  it('names the latest actor and counts the others', () => {
    expect(actorsPhrase(named('alice'), 1)).toBe('alice');
    expect(actorsPhrase(named('alice', 'bob'), 2)).toBe('alice and bob');
    expect(actorsPhrase(named('alice', 'bob', 'carol'), 2)).toBe('alice and bob');
    expect(actorsPhrase(named('alice', 'bob', 'carol'), 4)).toBe('alice and 3 others');
    // The second actor is not shown (blocked since): counted, not named.
    expect(actorsPhrase(named('alice'), 2)).toBe('alice and 1 other');
    expect(actorsPhrase([], 3)).toBe('3 people');
  });

  it('says what happened, naming nobody for what moderation tells', () => {
    const base = { actors: named('alice', 'bob'), actorCount: 1_000 };
    expect(notificationText({ ...base, kind: 'lol' })).toBe('alice and 999 others LOLed your post');
    expect(notificationText({ ...base, kind: 'reply' })).toBe(
      'alice and 999 others replied to your comment',
    );
    for (const kind of ['report-removed', 'post-held', 'post-approved', 'post-rejected'] as const) {
      expect(notificationText({ kind, actors: [], actorCount: 0 })).not.toMatch(/alice|bob/);
    }
  });
});
