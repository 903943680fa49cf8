import { telegramSessionBodySchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import { clientAddress, networkKey } from '../../core/network';
import { playerFromRequest, setPlayerCookie } from '../player-cookie';
import type { TelegramService } from './telegram-service';

/** Sign-in from the Mini App, and the web player's link to a Telegram account. */
export function telegramRouter(service: TelegramService, secret: string): Router {
  const router = Router();

  router.post('/telegram/session', async (req, res) => {
    const { initData, country } = parseInput(telegramSessionBodySchema, req.body);
    const { answer, userId } = await service.signIn(
      initData,
      country,
      networkKey(clientAddress(req), secret),
    );
    if (userId) setPlayerCookie(res, userId, req.secure, { embedded: true });
    const created = answer.status === 'signed-in' && answer.created;
    res.status(created ? 201 : 200).json(answer);
  });

  router.post('/telegram/link-codes', async (req, res) => {
    res.status(201).json(await service.createLinkCode(playerFromRequest(req)));
  });

  router.get('/telegram/link', async (req, res) => {
    res.json({ linked: await service.isLinked(playerFromRequest(req)) });
  });

  return router;
}
