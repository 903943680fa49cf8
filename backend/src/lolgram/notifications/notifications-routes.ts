import { markReadBodySchema, notificationsQuerySchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import { requireViewer } from '../../accounts';
import type { NotificationsService } from './notifications-service';

/** The signed-in viewer's own notifications. */
export function notificationsRouter(service: NotificationsService): Router {
  const router = Router();

  router.get('/notifications', async (req, res) => {
    const viewer = requireViewer(req, res);
    const page = parseInput(notificationsQuerySchema, req.query);
    res.json(await service.list(viewer, page));
  });

  router.get('/notifications/unread-count', async (req, res) => {
    res.json(await service.unread(requireViewer(req, res)));
  });

  router.post('/notifications/read', async (req, res) => {
    const viewer = requireViewer(req, res);
    const { upTo } = parseInput(markReadBodySchema, req.body);
    res.json(await service.markRead(viewer, upTo));
  });

  return router;
}
