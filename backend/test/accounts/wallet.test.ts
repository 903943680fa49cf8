import {
  errorBodySchema,
  lolgramUserSchema,
  meAnswerSchema,
  signInInputSchema,
} from '@tapgram/shared';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer } from '../helpers/answers';
import { startTestServer, type TestServer } from '../../test-support/server';
import { TestWallet } from '../lolgram/builders';

describe('Sign-In With Solana', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const nonce = async (address: string, agent = request.agent(server.url)) =>
    expectAnswer(
      signInInputSchema,
      (await agent.post('/api/lolgram/auth/wallet/nonce').send({ address })).body,
    );
  const meOf = async (agent: ReturnType<typeof request.agent>) =>
    expectAnswer(meAnswerSchema, (await agent.get('/api/lolgram/users/me')).body);

  async function createWalletUser(wallet: TestWallet) {
    const agent = request.agent(server.url);
    const proof = wallet.sign(await nonce(wallet.address, agent));
    const res = await agent.post('/api/lolgram/users/create').send({
      username: `wallet_${wallet.address.slice(0, 8)}`,
      password: wallet.address,
      walletAddress: wallet.address,
      proof,
    });
    return { agent, res, proof };
  }

  it('issues a sign-in request naming this site, the address, a nonce, the time and devnet', async () => {
    const wallet = new TestWallet();
    const input = await nonce(wallet.address);
    expect(input).toMatchObject({
      address: wallet.address,
      chainId: 'solana:devnet',
      version: '1',
    });
    expect(input.domain).toBe(new URL(server.url).host);
    expect(input.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(input.expirationTime)).toBeGreaterThan(Date.parse(input.issuedAt));
  });

  it('creates a wallet account from a valid proof and signs it in; the address alone signs nobody in', async () => {
    const wallet = new TestWallet();
    const { agent, res } = await createWalletUser(wallet);
    expect(res.status).toBe(201);
    expect(expectAnswer(lolgramUserSchema, res.body)).toMatchObject({
      username: `wallet_${wallet.address.slice(0, 8)}`,
      walletAddress: wallet.address,
    });
    expect(await meOf(agent)).toEqual({ ...res.body, isAdmin: false });
    const byWallet = await request(server.url).get(`/api/lolgram/users/wallet/${wallet.address}`);
    expect(expectAnswer(lolgramUserSchema, byWallet.body).id).toBe(res.body.id);
    const withAddressAsPassword = await request(server.url)
      .post('/api/lolgram/users/login')
      .send({ username: res.body.username, password: wallet.address });
    expect(withAddressAsPassword.status).toBe(401);
  });

  it('signs an existing wallet user in with a fresh proof', async () => {
    const wallet = new TestWallet();
    const { res } = await createWalletUser(wallet);
    const agent = request.agent(server.url);
    const login = await agent
      .post('/api/lolgram/auth/wallet/login')
      .send({ proof: wallet.sign(await nonce(wallet.address, agent)) });
    expect(login.status).toBe(200);
    expect(expectAnswer(lolgramUserSchema, login.body).id).toBe(res.body.id);
    expect((await meOf(agent)).id).toBe(res.body.id);
  });

  it('refuses a replayed proof', async () => {
    const wallet = new TestWallet();
    const { proof } = await createWalletUser(wallet);
    const replay = await request(server.url).post('/api/lolgram/auth/wallet/login').send({ proof });
    expect(replay.status).toBe(401);
  });

  it('refuses an expired proof', async () => {
    const wallet = new TestWallet();
    await createWalletUser(wallet);
    const input = await nonce(wallet.address);
    await server.db.pool.query(
      "UPDATE wallet_nonces SET expires_at = now() - interval '1 second' WHERE nonce = $1",
      [input.nonce],
    );
    const res = await request(server.url)
      .post('/api/lolgram/auth/wallet/login')
      .send({ proof: wallet.sign(input) });
    expect(res.status).toBe(401);
  });

  it('refuses a proof for another address, another site, or a forged signature', async () => {
    const victim = new TestWallet();
    const attacker = new TestWallet();
    await createWalletUser(victim);
    const login = (proof: unknown) =>
      request(server.url).post('/api/lolgram/auth/wallet/login').send({ proof });
    // The attacker signs a request issued for the victim's address with its own key.
    expect((await login(attacker.sign(await nonce(victim.address)))).status).toBe(401);
    const otherSite = victim.sign(await nonce(victim.address), { domain: 'evil.example' });
    expect((await login(otherSite)).status).toBe(401);
    const proof = victim.sign(await nonce(victim.address));
    const signature = Buffer.from(proof.output.signature, 'base64');
    signature[0] ^= 0xff;
    const forged = {
      ...proof,
      output: { ...proof.output, signature: signature.toString('base64') },
    };
    expect((await login(forged)).status).toBe(401);
  });

  it.each([
    ['statement', { statement: 'Approve a transfer of everything you own.' }],
    ['uri', { uri: 'https://evil.example' }],
    ['issuedAt', { issuedAt: '2001-01-01T00:00:00.000Z' }],
    ['expirationTime', { expirationTime: '2999-01-01T00:00:00.000Z' }],
  ])(
    'refuses a signed text whose %s differs from what the server issued',
    async (_field, tamper) => {
      const wallet = new TestWallet();
      await createWalletUser(wallet);
      const agent = request.agent(server.url);
      const issued = await nonce(wallet.address, agent);
      // Both the signed message and the client's copy carry the change: only the server's stored
      // request can tell.
      const res = await agent
        .post('/api/lolgram/auth/wallet/login')
        .send({ proof: wallet.sign(issued, tamper) });
      expect(res.status).toBe(401);
      // The refused attempt did not spend the nonce: the genuine signature still signs in, once.
      const genuine = wallet.sign(issued);
      expect(
        (await agent.post('/api/lolgram/auth/wallet/login').send({ proof: genuine })).status,
      ).toBe(200);
    },
  );

  it('checks the signed text against the stored request, not the copy the client sends back', async () => {
    const wallet = new TestWallet();
    const { res: created } = await createWalletUser(wallet);
    const proof = wallet.sign(await nonce(wallet.address));
    // The client's copy is ignored except for its nonce: the signature over the issued text counts.
    const relabelled = { ...proof, input: { ...proof.input, statement: 'Something else' } };
    const res = await request(server.url)
      .post('/api/lolgram/auth/wallet/login')
      .send({ proof: relabelled });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(created.body.id);
  });

  it('refuses to issue or accept a sign-in request for a spoofed Host when PUBLIC_ORIGIN is unset', async () => {
    const wallet = new TestWallet();
    const spoofed = await request(server.url)
      .post('/api/lolgram/auth/wallet/nonce')
      .set('Host', 'evil.example')
      .send({ address: wallet.address });
    expect(spoofed.status).toBe(403);
    expect(expectAnswer(errorBodySchema, spoofed.body).error).toMatch(/PUBLIC_ORIGIN must be set/);
    const { proof } = await createWalletUser(new TestWallet());
    const login = await request(server.url)
      .post('/api/lolgram/auth/wallet/login')
      .set('Host', 'localhost.evil.example')
      .send({ proof });
    expect(login.status).toBe(403);
    const loopback = await request(server.url)
      .post('/api/lolgram/auth/wallet/nonce')
      .set('Host', `localhost:${server.port}`)
      .send({ address: wallet.address });
    expect(loopback.status).toBe(200);
    expect(expectAnswer(signInInputSchema, loopback.body)).toMatchObject({
      domain: `localhost:${server.port}`,
      uri: `http://localhost:${server.port}`,
    });
  });

  it('lets a wallet account keep its own wallet_ name when it edits its bio', async () => {
    const wallet = new TestWallet();
    const { agent, res } = await createWalletUser(wallet);
    const edit = await agent
      .put(`/api/lolgram/users/${res.body.id}`)
      .send({ username: res.body.username, bio: 'gm' });
    expect(edit.status).toBe(200);
    expect(expectAnswer(lolgramUserSchema, edit.body)).toMatchObject({
      username: res.body.username,
      bio: 'gm',
    });
  });

  it('refuses to create a wallet account under another name', async () => {
    const wallet = new TestWallet();
    const agent = request.agent(server.url);
    const res = await agent.post('/api/lolgram/users/create').send({
      username: 'someone_else',
      walletAddress: wallet.address,
      proof: wallet.sign(await nonce(wallet.address, agent)),
    });
    expect(res.status).toBe(400);
  });
});

describe('Sign-In With Solana behind a configured PUBLIC_ORIGIN', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_ORIGIN: 'https://tapgram.example/' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('names the configured site whatever Host the request carries, and signs in with it', async () => {
    const wallet = new TestWallet();
    const agent = request.agent(server.url);
    const issued = await agent
      .post('/api/lolgram/auth/wallet/nonce')
      .set('Host', 'evil.example')
      .send({ address: wallet.address });
    expect(issued.status).toBe(200);
    expect(expectAnswer(signInInputSchema, issued.body)).toMatchObject({
      domain: 'tapgram.example',
      uri: 'https://tapgram.example',
    });
    const created = await agent.post('/api/lolgram/users/create').send({
      username: `wallet_${wallet.address.slice(0, 8)}`,
      walletAddress: wallet.address,
      proof: wallet.sign(issued.body),
    });
    expect(created.status).toBe(201);
    const phished = wallet.sign(
      (await agent.post('/api/lolgram/auth/wallet/nonce').send({ address: wallet.address })).body,
      { domain: 'evil.example', uri: 'https://evil.example' },
    );
    expect(
      (await agent.post('/api/lolgram/auth/wallet/login').send({ proof: phished })).status,
    ).toBe(401);
  });
});
