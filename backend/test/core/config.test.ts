import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config';

describe('configuration', () => {
  it('has working defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.DATA_DIR).toMatch(/data$/);
    expect(config.ADMIN_USERNAMES).toEqual([]);
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT "abc"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET/);
  });

  it('treats empty optional URLs as unset and splits the admin list', () => {
    const config = loadConfig({ DATABASE_URL: '', ADMIN_USERNAMES: ' Alice, bob ,,' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.ADMIN_USERNAMES).toEqual(['alice', 'bob']);
  });
});
