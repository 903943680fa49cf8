/**
 * What the backend's tests share with the browser tests and the benchmarks: the real server
 * started in-process on scratch services, a Redis of one's own, and an admin made as the CLI
 * makes one.
 */
import { createAdminAccount } from '../src/accounts/admin-accounts';
import { UsersRepository } from '../src/accounts/users-repository';
import type { TestServer } from './server';

export { startTestServer, type TestServer, type TestServerOptions } from './server';
export { startRedisProcess, type RedisProcess } from './redis-process';

/** Creates an admin account on `server` as `npm run admin -- create` does. */
export async function createAdmin(
  server: TestServer,
  username: string,
  password: string,
): Promise<void> {
  await createAdminAccount(new UsersRepository(server.db.pool), username, password);
}
export {
  makeTelegramUser,
  signInitData,
  telegramEnv,
  TEST_BOT_TOKEN,
  TEST_TELEGRAM_APP_URL,
  type TelegramUser,
} from './telegram';
