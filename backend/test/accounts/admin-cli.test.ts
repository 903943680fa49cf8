import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { messages } from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../test-support/server';
import { createScratchDatabase } from '../../test-support/services';
import { makeName } from '../lolgram/builders';

const BACKEND_DIR = fileURLToPath(new URL('../..', import.meta.url));
const QUEUE = '/api/lolgram/admin/moderation/queue';

describe('npm run admin -- create', () => {
  let database: { url: string; drop: () => Promise<void> };
  let dataDir: string;
  const listed = makeName('boss');
  beforeAll(async () => {
    database = await createScratchDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-admin-cli-'));
  });
  afterAll(async () => {
    await database?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  /** Runs the admin CLI as an operator would, with `input` piped to its standard input. */
  const admin = (args: string[], input: string) =>
    new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'src/accounts/admin-cli.ts', ...args],
        {
          cwd: BACKEND_DIR,
          env: {
            ...process.env,
            DATABASE_URL: database.url,
            DATA_DIR: dataDir,
            ADMIN_USERNAMES: listed,
            LOG_LEVEL: 'warn',
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => resolve({ code, output }));
      child.stdin.end(input);
    });

  it('creates a password account with the admin role, the password read from a piped line', async () => {
    const created = await admin(['create', listed], 'a long admin passphrase\n');
    expect(created.output).toMatch(new RegExp(`${listed} is created, as an admin`));
    expect(created.code).toBe(0);

    const server = await startTestServer({
      databaseUrl: database.url,
      env: { DATA_DIR: dataDir, ADMIN_USERNAMES: listed },
    });
    try {
      const agent = request.agent(server.url);
      const login = await agent
        .post('/api/lolgram/users/login')
        .send({ username: listed, password: 'a long admin passphrase' });
      expect(login.status).toBe(200);
      expect((await agent.get('/api/lolgram/users/me')).body).toMatchObject({
        username: listed,
        isAdmin: true,
      });
      expect((await agent.get(QUEUE)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('refuses a taken name, a short password, a wallet_ name and an empty input, in one line each', async () => {
    const taken = await admin(['create', listed.toUpperCase()], 'another passphrase\n');
    expect(taken).toEqual({ code: 1, output: `${messages.usernameTaken}\n` });
    const short = await admin(['create', makeName('boss')], 'short\n');
    expect(short).toEqual({ code: 1, output: `${messages.passwordTooShort}\n` });
    const wallet = await admin(['create', 'wallet_abcd1234'], 'a long passphrase\n');
    expect(wallet.code).toBe(1);
    expect(wallet.output).toMatch(/reserved for wallet accounts/);
    const empty = await admin(['create', makeName('boss')], '');
    expect(empty.code).toBe(1);
    expect(empty.output).toMatch(/pipe the password/);
  });
});
