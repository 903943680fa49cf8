import { savedQuerySchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import { requireViewer } from '../../accounts';
import type { SavesService } from './saves-service';

export function savesRouter(service: SavesService): Router {
  const router = Router();

  router.post('/posts/:id/save', async (req, res) => {
    res.json(await service.setSaved(requireViewer(req, res), req.params.id, true));
  });

  router.delete('/posts/:id/save', async (req, res) => {
    res.json(await service.setSaved(requireViewer(req, res), req.params.id, false));
  });

  router.get('/users/:id/saved', async (req, res) => {
    const viewer = requireViewer(req, res);
    const page = parseInput(savedQuerySchema, req.query);
    res.json(await service.saved(viewer, req.params.id, page));
  });

  return router;
}
