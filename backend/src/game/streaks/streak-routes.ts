import { idSchema, streakClaimBodySchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import { playerFromRequest } from '../player-cookie';
import type { StreakService } from './streak-service';

export function streakRouter(streaks: StreakService): Router {
  const router = Router();

  router.get('/users/:id/streak', async (req, res) => {
    res.json(await streaks.streak(parseInput(idSchema, req.params.id)));
  });

  router.post('/streak/claim', async (req, res) => {
    const { userId } = parseInput(streakClaimBodySchema, req.body);
    res.json(await streaks.claim(playerFromRequest(req), userId));
  });

  return router;
}
