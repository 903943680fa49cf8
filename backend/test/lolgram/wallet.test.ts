import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { TestWallet } from './builders';

describe('Sign-In With Solana', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const nonce = async (address: string, agent = request.agent(server.url)) =>
    (await agent.post('/api/lolgram/auth/wallet/nonce').send({ address })).body;

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
    expect(res.body).toMatchObject({
      username: `wallet_${wallet.address.slice(0, 8)}`,
      walletAddress: wallet.address,
    });
    expect((await agent.get('/api/lolgram/users/me')).body.id).toBe(res.body.id);
    expect(
      (await request(server.url).get(`/api/lolgram/users/wallet/${wallet.address}`)).body.id,
    ).toBe(res.body.id);
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
    expect(login.body.id).toBe(res.body.id);
    expect((await agent.get('/api/lolgram/users/me')).body.id).toBe(res.body.id);
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
    // The attacker signs a request issued for the victim's address with its own key.
    const stolen = attacker.sign(await nonce(victim.address));
    expect(
      (await request(server.url).post('/api/lolgram/auth/wallet/login').send({ proof: stolen }))
        .status,
    ).toBe(401);
    const claimed = { ...stolen, input: { ...stolen.input }, output: { ...stolen.output } };
    const otherSite = victim.sign(await nonce(victim.address), { domain: 'evil.example' });
    expect(
      (await request(server.url).post('/api/lolgram/auth/wallet/login').send({ proof: otherSite }))
        .status,
    ).toBe(401);
    const proof = victim.sign(await nonce(victim.address));
    const forged = { ...proof, input: { ...proof.input, statement: 'Something else' } };
    expect(
      (await request(server.url).post('/api/lolgram/auth/wallet/login').send({ proof: forged }))
        .status,
    ).toBe(401);
    expect(claimed.input.address).toBe(victim.address);
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
