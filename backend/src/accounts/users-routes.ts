import {
  createAccountBodySchema,
  createWalletAccountBodySchema,
  loginBodySchema,
  updateProfileBodySchema,
  walletLoginBodySchema,
  walletNonceBodySchema,
} from '@tapgram/shared';
import { Router, type Request } from 'express';
import { parseInput } from '../core/errors';
import { clientAddress } from '../core/network';
import { can } from './access';
import type { SessionStore } from './sessions';
import type { SignInSite } from './sign-in-site';
import { singleImage } from '../images';
import type { UsersService } from './users-service';
import { requireViewer, signedInOnly } from './viewer';

export function usersRouter(
  service: UsersService,
  sessions: SessionStore,
  /** The site wallet sign-in messages name, from configuration (see sign-in-site.ts). */
  signInSite: (req: Request) => SignInSite,
): Router {
  const router = Router();

  router.post('/users/create', async (req, res) => {
    if (req.body && typeof req.body === 'object' && 'walletAddress' in req.body) {
      const body = parseInput(createWalletAccountBodySchema, req.body);
      const user = await service.createWithWallet({
        username: body.username,
        address: body.walletAddress,
        proof: body.proof,
        site: signInSite(req),
        client: clientAddress(req),
      });
      await sessions.start(res, req, user.id, 'wallet');
      res.status(201).json(user);
      return;
    }
    const { username, password } = parseInput(createAccountBodySchema, req.body);
    const user = await service.createWithPassword(username, password, clientAddress(req));
    await sessions.start(res, req, user.id, 'password');
    res.status(201).json(user);
  });

  router.post('/users/login', async (req, res) => {
    const { username, password } = parseInput(loginBodySchema, req.body);
    const user = await service.login(username, password, clientAddress(req));
    await sessions.start(res, req, user.id, 'password');
    res.json(user);
  });

  router.post('/users/logout', async (req, res) => {
    await sessions.end(req, res);
    res.status(204).end();
  });

  router.get('/users/me', async (req, res) => {
    const viewer = requireViewer(req, res);
    res.json({ ...(await service.byId(viewer.id)), isAdmin: can(viewer, 'admin', null) });
  });

  router.post('/auth/wallet/nonce', async (req, res) => {
    const { address } = parseInput(walletNonceBodySchema, req.body);
    res.json(await service.issueSignIn(address, signInSite(req), clientAddress(req)));
  });

  router.post('/auth/wallet/login', async (req, res) => {
    const { proof } = parseInput(walletLoginBodySchema, req.body);
    const user = await service.walletLogin(proof, signInSite(req));
    await sessions.start(res, req, user.id, 'wallet');
    res.json(user);
  });

  router.get('/users/wallet/:walletAddress', async (req, res) => {
    res.json(await service.byWallet(req.params.walletAddress));
  });

  router.get('/users/username/:username', async (req, res) => {
    res.json(await service.byUsername(req.params.username));
  });

  router.put('/users/:id/avatar', signedInOnly, singleImage('avatar'), async (req, res) => {
    const user = await service.setAvatar(
      requireViewer(req, res),
      req.params.id as string,
      req.file!.buffer,
    );
    res.json({ user });
  });

  router.put('/users/:id', async (req, res) => {
    const viewer = requireViewer(req, res);
    const { username, bio } = parseInput(updateProfileBodySchema, req.body);
    res.json(await service.updateProfile(viewer, req.params.id, username, bio));
  });

  router.get('/users/:id', async (req, res) => {
    res.json(await service.byId(req.params.id));
  });

  return router;
}
