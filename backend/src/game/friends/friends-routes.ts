import { friendActionBodySchema, friendRequestBodySchema, idSchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import { playerFromRequest } from '../player-cookie';
import type { BonusHistory } from './bonus-history';
import type { FriendsService } from './friends-service';
import type { InvitationsService } from './invitations-service';

/** Friends, invitations and bonuses: each call acts for the player of the request's cookie. */
export function friendsRouter(
  friends: FriendsService,
  invitations: InvitationsService,
  bonuses: BonusHistory,
): Router {
  const router = Router();
  const id = (value: unknown) => parseInput(idSchema, value);

  router.get('/users/:id/invite', async (req, res) => {
    res.json(await invitations.invite(playerFromRequest(req), id(req.params.id)));
  });

  router.get('/users/:id/invitations', async (req, res) => {
    res.json(await invitations.invitations(playerFromRequest(req), id(req.params.id)));
  });

  router.get('/users/:id/bonuses', async (req, res) => {
    res.json(await bonuses.of(playerFromRequest(req), id(req.params.id)));
  });

  router.get('/users/:id/friends', async (req, res) => {
    res.json(await friends.friends(playerFromRequest(req), id(req.params.id)));
  });

  router.get('/users/:id/friends/board', async (req, res) => {
    res.json(await friends.board(playerFromRequest(req), id(req.params.id)));
  });

  router.post('/friends/requests', async (req, res) => {
    const { userId, username } = parseInput(friendRequestBodySchema, req.body);
    res.json(await friends.request(playerFromRequest(req), userId, username));
  });

  router.post('/friends/requests/:id/accept', async (req, res) => {
    const { userId } = parseInput(friendActionBodySchema, req.body);
    res.json(await friends.accept(playerFromRequest(req), userId, id(req.params.id)));
  });

  router.delete('/friends/requests/:id', async (req, res) => {
    const { userId } = parseInput(friendActionBodySchema, req.body);
    res.json(await friends.dropRequest(playerFromRequest(req), userId, id(req.params.id)));
  });

  router.delete('/friends/:id', async (req, res) => {
    const { userId } = parseInput(friendActionBodySchema, req.body);
    res.json(await friends.remove(playerFromRequest(req), userId, id(req.params.id)));
  });

  return router;
}
