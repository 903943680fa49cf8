import { sign } from '@telegram-apps/init-data-node';
import { describe, expect, it } from 'vitest';
import { initDataErrors, verifyInitData } from '../../../src/game/telegram/init-data';
import { HttpError } from '../../../src/core/errors';
import { makeTelegramUser, signInitData, TEST_BOT_TOKEN } from '../../../test-support/telegram';

/**
 * The example of the Telegram Mini Apps SDK's documentation (docs.telegram-mini-apps.com,
 * "Validating"): init data of 2022 and the bot token that signed it.
 */
const PUBLISHED_INIT_DATA =
  'query_id=AAHdF6IQAAAAAN0XohDhrOrc' +
  '&user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%22%2C%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C%22is_premium%22%3Atrue%7D' +
  '&auth_date=1662771648' +
  '&hash=c501b71e775f74ce10e377dea85a7ea24ecd640b223ea86dfe453e0eaed2e2b2';
const PUBLISHED_BOT_TOKEN = '5768337691:AAH5YkoiEuPk8-FZa32hStHTqXiLPtAEhx8';

const NOW = Date.UTC(2026, 0, 15, 12);
const rules = (fields: Partial<Parameters<typeof verifyInitData>[1]> = {}) => ({
  botToken: TEST_BOT_TOKEN,
  maxAgeSeconds: 3600,
  now: () => NOW,
  ...fields,
});

/** The 401 message verifyInitData refuses `raw` with. */
function refusal(raw: string, given = rules()): string {
  try {
    verifyInitData(raw, given);
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return error.message;
    throw error;
  }
  throw new Error('accepted');
}

const fresh = (user = makeTelegramUser(), authDate = new Date(NOW - 60_000)) =>
  signInitData(user, { authDate });

describe('Telegram init data', () => {
  it('validates the published example with its bot token, the age check off', () => {
    const launch = verifyInitData(
      PUBLISHED_INIT_DATA,
      rules({ botToken: PUBLISHED_BOT_TOKEN, maxAgeSeconds: 0 }),
    );
    expect(launch).toMatchObject({
      telegramId: 279058397,
      username: 'vdkfrost',
      firstName: 'Vladislav',
      lastName: 'Kibenko',
    });
    expect(launch.authDate.toISOString()).toBe('2022-09-10T01:00:48.000Z');
  });

  it('refuses the published example once its age is checked: it is years old', () => {
    expect(refusal(PUBLISHED_INIT_DATA, rules({ botToken: PUBLISHED_BOT_TOKEN }))).toBe(
      initDataErrors.expired,
    );
  });

  it('reads the launching user and the start parameter', () => {
    const user = makeTelegramUser({ username: 'tess_tg' });
    const raw = signInitData(user, { startParam: 'abc123', authDate: new Date(NOW - 1000) });
    expect(verifyInitData(raw, rules())).toMatchObject({
      telegramId: user.id,
      username: 'tess_tg',
      firstName: 'Tess',
      startParam: 'abc123',
    });
  });

  it('refuses a changed field', () => {
    const raw = fresh(makeTelegramUser({ first_name: 'Alice' }));
    expect(refusal(raw.replace('Alice', 'Mallory'))).toBe(initDataErrors.badSignature);
    const other = makeTelegramUser();
    const params = new URLSearchParams(raw);
    params.set('user', JSON.stringify(other));
    expect(refusal(params.toString())).toBe(initDataErrors.badSignature);
  });

  it('refuses data without a hash, or with an empty one', () => {
    const params = new URLSearchParams(fresh());
    params.delete('hash');
    expect(refusal(params.toString())).toBe(initDataErrors.notSigned);
    params.set('hash', '');
    expect(refusal(params.toString())).toBe(initDataErrors.notSigned);
  });

  it("refuses data another bot's token signed", () => {
    const raw = signInitData(makeTelegramUser(), {
      authDate: new Date(NOW - 1000),
      token: '987654321:ANOTHER-bots-token-0123456789abcdefghij',
    });
    expect(refusal(raw)).toBe(initDataErrors.badSignature);
  });

  it('refuses an expired auth_date, and takes one just inside the limit', () => {
    const user = makeTelegramUser();
    expect(refusal(fresh(user, new Date(NOW - 3601_000)))).toBe(initDataErrors.expired);
    expect(verifyInitData(fresh(user, new Date(NOW - 3599_000)), rules()).telegramId).toBe(user.id);
    expect(refusal(fresh(user, new Date(NOW - 121_000)), rules({ maxAgeSeconds: 120 }))).toBe(
      initDataErrors.expired,
    );
  });

  it('refuses a duplicated key, even one whose copies are both signed', () => {
    const raw = fresh();
    const user = new URLSearchParams(raw).get('user')!;
    expect(refusal(`${raw}&user=${encodeURIComponent(user)}`)).toBe(
      initDataErrors.duplicated('user'),
    );
    const hash = new URLSearchParams(raw).get('hash')!;
    expect(refusal(`hash=${hash}&${raw}`)).toBe(initDataErrors.duplicated('hash'));
  });

  it('refuses signed data that names no user', () => {
    const raw = sign({ chat_type: 'sender' }, TEST_BOT_TOKEN, new Date(NOW - 1000));
    expect(refusal(raw)).toBe(initDataErrors.noUser);
  });
});
