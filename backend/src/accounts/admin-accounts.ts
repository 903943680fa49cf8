import { createAccountBodySchema, type LolgramUser } from '@tapgram/shared';
import { parseInput } from '../core/errors';
import { PasswordHasher } from './passwords';
import type { UsersRepository } from './users-repository';
import { assertNotWalletName } from './users-service';

/**
 * The operator's way to an admin (`npm run admin`): a password account created with the role, by
 * the same rules as a sign-up. Nobody gets the role by choosing a name.
 */
export async function createAdminAccount(
  users: UsersRepository,
  username: string,
  password: string,
  passwords = new PasswordHasher(),
): Promise<LolgramUser> {
  const body = parseInput(createAccountBodySchema, { username, password });
  assertNotWalletName(body.username);
  return users.create({
    username: body.username,
    passwordHash: await passwords.hash(body.password),
    walletAddress: null,
    role: 'admin',
  });
}
