import { blocksQuerySchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import { requireViewer } from '../../accounts';
import type { BlocksService } from './blocks-service';

/** Blocking, as the signed-in viewer: `:id` is the other user, or oneself for the list. */
export function blocksRouter(service: BlocksService): Router {
  const router = Router();

  router.get('/users/:id/block', async (req, res) => {
    res.json(await service.status(requireViewer(req, res), req.params.id));
  });

  router.post('/users/:id/block', async (req, res) => {
    res.json(await service.block(requireViewer(req, res), req.params.id));
  });

  router.delete('/users/:id/block', async (req, res) => {
    res.json(await service.unblock(requireViewer(req, res), req.params.id));
  });

  router.get('/users/:id/blocked', async (req, res) => {
    const viewer = requireViewer(req, res);
    const page = parseInput(blocksQuerySchema, req.query);
    res.json(await service.list(viewer, req.params.id, page));
  });

  return router;
}
