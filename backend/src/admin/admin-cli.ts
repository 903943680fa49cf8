// npm run admin -- grant <username> | revoke <username>
import { loadConfigOrExit, runCli } from '../core/cli';
import { openDatabase } from '../core/db';
import { createLogger } from '../core/logger';
import { runMigrations } from '../core/migrate';

const [command, username] = process.argv.slice(2);
if (!['grant', 'revoke'].includes(command ?? '') || !username) {
  console.error('Usage: npm run admin -- grant <username> | revoke <username>');
  process.exit(2);
}
runCli(async () => {
  const config = loadConfigOrExit();
  const logger = createLogger('warn');
  const db = await openDatabase(
    { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR },
    logger,
  );
  try {
    await runMigrations(db.pool, logger);
    const role = command === 'grant' ? 'admin' : 'user';
    const { rowCount } = await db.pool.query(
      'UPDATE lolgram_users SET role = $2 WHERE lower(username) = lower($1)',
      [username, role],
    );
    if (!rowCount) {
      console.error(`No LOLGram user named ${username}`);
      process.exitCode = 1;
    } else {
      console.log(`${username} is now ${role === 'admin' ? 'an admin' : 'a regular user'}`);
      if (role === 'user' && config.ADMIN_USERNAMES.includes(username.toLowerCase())) {
        console.log(
          `Note: ${username} is still listed in ADMIN_USERNAMES, which makes them an admin again at the next start.`,
        );
      }
    }
  } finally {
    await db.close();
  }
});
