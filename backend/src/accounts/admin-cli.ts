// npm run admin -- create <username> | grant <username> | revoke <username>
import { loadConfigOrExit, readSecret, runCli } from '../core/cli';
import { openDatabase } from '../core/db';
import { createLogger } from '../core/logger';
import { runMigrations } from '../core/migrate';
import { UsersRepository } from './users-repository';
import { createAdminAccount } from './admin-accounts';

const USAGE = `Usage: npm run admin -- create <username> | grant <username> | revoke <username>

  create   a new password account with the admin role; the password is asked for (or read from
           the first line of a piped standard input)
  grant    gives an existing account the admin role
  revoke   takes it back`;

const [command, username] = process.argv.slice(2);
if (!['create', 'grant', 'revoke'].includes(command ?? '') || !username) {
  console.error(USAGE);
  process.exit(2);
}
runCli(async () => {
  const config = loadConfigOrExit();
  // Asked before the database opens: nobody waits at a prompt holding the embedded database.
  const password = command === 'create' ? await readSecret(`Password for ${username}: `) : '';
  const logger = createLogger('warn');
  const db = await openDatabase(
    { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR },
    logger,
  );
  try {
    await runMigrations(db.pool, logger);
    const users = new UsersRepository(db.pool);
    const listed = config.ADMIN_USERNAMES.includes(username.toLowerCase());
    if (command === 'create') {
      const admin = await createAdminAccount(users, username, password);
      console.log(
        `${admin.username} is created, as an admin: sign in at /lolgram, then open /admin`,
      );
      return;
    }
    const role = command === 'grant' ? 'admin' : 'user';
    if (!(await users.setRole(username, role))) {
      console.error(`No LOLGram user named ${username}`);
      process.exitCode = 1;
      return;
    }
    console.log(`${username} is now ${role === 'admin' ? 'an admin' : 'a regular user'}`);
    if (role === 'user' && listed) {
      console.log(
        `Note: ${username} is still listed in ADMIN_USERNAMES, which makes them an admin again at the next start.`,
      );
    }
  } finally {
    await db.close();
  }
});
