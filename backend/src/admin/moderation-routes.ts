import {
  moderationDecisionBodySchema,
  popularQuerySchema,
  reportBodySchema,
} from '@tapgram/shared';
import { Router } from 'express';
import { checkReadiness } from '../core/health';
import { parseInput } from '../core/errors';
import type { Queryable } from '../core/db';
import type { Redis } from '../core/redis';
import { requireViewer, viewerOf } from '../lolgram/viewer';
import type { ModerationRepository } from './moderation-repository';
import type { ModerationService } from './moderation-service';

/** Mounted inside the LOLGram router, after the viewer is resolved. */
export function moderationRouter(
  service: ModerationService,
  repo: ModerationRepository,
  health: { db: Queryable; redis: Redis | null },
): Router {
  const router = Router();

  router.post('/posts/:id/report', async (req, res) => {
    const { reason } = parseInput(reportBodySchema, req.body);
    await service.report(requireViewer(req, res), req.params.id, reason);
    res.status(201).json({ reported: true });
  });

  router.get('/admin/moderation/queue', async (_req, res) => {
    res.json(await service.queue(viewerOf(res)));
  });

  router.post('/admin/moderation/:queueId', async (req, res) => {
    service.requireAdmin(viewerOf(res));
    const { decision, notes } = parseInput(moderationDecisionBodySchema, req.body);
    res.json(await service.decide(viewerOf(res), req.params.queueId, decision, notes));
  });

  router.get('/admin/stats', async (_req, res) => {
    service.requireAdmin(viewerOf(res));
    const [stats, readiness] = await Promise.all([
      repo.stats(),
      checkReadiness(health.db, health.redis),
    ]);
    res.json({ ...stats, health: readiness.checks });
  });

  router.get('/analytics/popular', async (req, res) => {
    service.requireAdmin(viewerOf(res));
    const { timeframe, limit } = parseInput(popularQuerySchema, req.query);
    res.json(await repo.popular(timeframe, limit));
  });

  return router;
}
