import { followBodySchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import { requireViewer } from '../../accounts';
import type { FollowsService } from './follows-service';

export function followsRouter(service: FollowsService): Router {
  const router = Router();

  router.get('/users/:followerId/following/:userId', async (req, res) => {
    res.json({ following: await service.isFollowing(req.params.followerId, req.params.userId) });
  });

  router.post('/users/:id/follow', async (req, res) => {
    const { followerId } = parseInput(followBodySchema, req.body);
    res.json(await service.setFollow(requireViewer(req, res), followerId, req.params.id, true));
  });

  router.delete('/users/:id/follow', async (req, res) => {
    const { followerId } = parseInput(followBodySchema, req.body);
    res.json(await service.setFollow(requireViewer(req, res), followerId, req.params.id, false));
  });

  return router;
}
