import request from 'supertest';
import { createAdmin, type TestServer } from '../../../test-support';
import { makeName, sessionCookieOf, type Account } from '../builders';

/** An admin made as an operator makes one (the admin CLI's own function), signed in. */
export async function makeAdmin(server: TestServer, username = makeName('boss')): Promise<Account> {
  const password = 'correct horse battery';
  await createAdmin(server, username, password);
  const agent = request.agent(server.url);
  const res = await agent.post('/api/lolgram/users/login').send({ username, password });
  if (res.status !== 200) throw new Error(`login: ${res.status} ${res.text}`);
  return { agent, user: res.body, password, cookie: sessionCookieOf(res) };
}
