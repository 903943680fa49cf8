import {
  aroundQuerySchema,
  createSessionBodySchema,
  createUserBodySchema,
  idSchema,
  leaderboardQuerySchema,
  TAP_KEY_HEADER,
  tapBodySchema,
  tapKeySchema,
  type GameConfig,
} from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../core/errors';
import { clientAddress, networkKey } from '../core/network';
import type { FastRoute } from '../core/fast-route';
import { playerFromCookieHeader, playerFromRequest, setPlayerCookie } from './player-cookie';
import type { GameService } from './service';

/** Where the invite code a new player arrived with is counted (friends/invitations-service.ts). */
export interface InviteAcceptance {
  accept(invitation: { inviteeId: string; code: string }): Promise<unknown>;
}

export function gameRouter(
  service: GameService,
  gameConfig: GameConfig,
  secret: string,
  invitations: InviteAcceptance,
): Router {
  const router = Router();

  router.get('/game/config', (_req, res) => {
    res.json(gameConfig);
  });

  router.post('/users', async (req, res) => {
    const { username, country, ref } = parseInput(createUserBodySchema, req.body);
    const user = await service.createUser(
      username,
      country,
      networkKey(clientAddress(req), secret),
    );
    if (ref) await invitations.accept({ inviteeId: user.id, code: ref });
    setPlayerCookie(res, user.id, req.secure);
    res.status(201).json(user);
  });

  router.get('/users/:id', async (req, res) => {
    res.json(await service.playerRecord(req.params.id, playerFromRequest(req)));
  });

  router.get('/users/:id/rank', async (req, res) => {
    res.json({ rank: await service.rank(req.params.id) });
  });

  router.get('/users/:id/around', async (req, res) => {
    const id = parseInput(idSchema, req.params.id);
    const { span } = parseInput(aroundQuerySchema, req.query);
    res.json(await service.around(id, span));
  });

  router.post('/sessions', async (req, res) => {
    const { userId } = parseInput(createSessionBodySchema, req.body);
    res.status(201).json(await service.createSession(playerFromRequest(req), userId));
  });

  router.get('/leaderboard/users', async (req, res) => {
    const { limit } = parseInput(leaderboardQuerySchema, req.query);
    res.json(await service.topUsers(limit));
  });

  router.get('/leaderboard/countries', async (_req, res) => {
    res.json(await service.topCountries());
  });

  router.get('/milestone/100k', async (_req, res) => {
    res.json(await service.milestone());
  });

  return router;
}

/** POST /api/tap is the hottest endpoint: it is served without the Express stack. */
export function gameFastRoutes(service: GameService, secret: string): Record<string, FastRoute> {
  return {
    'POST /api/tap': async ({ body, headers }) => {
      const { userId, sessionId, count = 1 } = parseInput(tapBodySchema, body);
      const header = headers[TAP_KEY_HEADER.toLowerCase()];
      const key = header === undefined ? undefined : parseInput(tapKeySchema, header);
      const player = playerFromCookieHeader(headers.cookie, secret);
      const { user, session } = await service.tap(player, { userId, sessionId, count, key });
      return { status: 200, body: { user, session } };
    },
  };
}
