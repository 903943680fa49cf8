import {
  changePasswordBodySchema,
  deleteAccountBodySchema,
  linkWalletBodySchema,
} from '@tapgram/shared';
import { Router, type Request, type Response } from 'express';
import { parseInput } from '../core/errors';
import { clientAddress } from '../core/network';
import type { AccountSettingsService, Asker } from './account-settings-service';
import { SESSION_COOKIE, type SessionStore } from './sessions';
import type { SignInSite } from './sign-in-site';
import { requireViewer } from './viewer';

/** The signed-in user's own account: /api/lolgram/users/me/... */
export function accountSettingsRouter(
  service: AccountSettingsService,
  sessions: SessionStore,
  signInSite: (req: Request) => SignInSite,
): Router {
  const router = Router();
  const asker = (req: Request, res: Response): Asker => ({
    viewer: requireViewer(req, res),
    sessionId: sessions.idOf(req),
    client: clientAddress(req),
    site: signInSite(req),
  });

  router.get('/users/me/settings', async (req, res) => {
    res.json(await service.settings(asker(req, res)));
  });

  router.put('/users/me/password', async (req, res) => {
    const who = asker(req, res);
    res.json(await service.changePassword(who, parseInput(changePasswordBodySchema, req.body)));
  });

  router.post('/users/me/sessions/end-others', async (req, res) => {
    res.json({ ended: await service.endOtherSessions(asker(req, res)) });
  });

  router.post('/users/me/wallet', async (req, res) => {
    const who = asker(req, res);
    const { proof } = parseInput(linkWalletBodySchema, req.body);
    res.json(await service.linkWallet(who, proof));
  });

  router.delete('/users/me/wallet', async (req, res) => {
    res.json(await service.unlinkWallet(asker(req, res)));
  });

  router.post('/users/me/delete', async (req, res) => {
    const who = asker(req, res);
    await service.deleteAccount(who, parseInput(deleteAccountBodySchema, req.body));
    res.clearCookie(SESSION_COOKIE, { path: '/' });
    res.status(204).end();
  });

  return router;
}
