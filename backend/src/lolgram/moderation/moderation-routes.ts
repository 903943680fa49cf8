import {
  moderationDecisionBodySchema,
  popularQuerySchema,
  reportBodySchema,
  type ModeratedContentType,
} from '@tapgram/shared';
import { Router } from 'express';
import { checkReadiness } from '../../core/health';
import { parseInput } from '../../core/errors';
import type { Queryable } from '../../core/db';
import type { Redis } from '../../core/redis';
import { requireAccess, requireViewer, viewerOf } from '../../accounts';
import type { ModerationService } from './moderation-service';
import type { ImageCheckState } from './scoring';
import type { StatsRepository } from './stats-repository';

/** Mounted inside the LOLGram router, after the viewer is resolved. */
/** The content types users report, by the path of their collection. */
const REPORTED: [path: string, type: ModeratedContentType][] = [
  ['posts', 'post'],
  ['comments', 'comment'],
];

export function moderationRouter(
  service: ModerationService,
  stats: StatsRepository,
  health: { db: Queryable; redis: Redis | null; imageCheckState: () => ImageCheckState },
): Router {
  const router = Router();

  // Every /admin path, known or not, is for admins: 401 or 403 before any 404.
  router.use('/admin', (_req, res, next) => {
    requireAccess(viewerOf(res), 'admin', null);
    next();
  });

  // One shape for any content type that takes reports: /<type>s/:id/report.
  for (const [path, contentType] of REPORTED) {
    router.post(`/${path}/:id/report`, async (req, res) => {
      const body = parseInput(reportBodySchema, req.body);
      await service.report(requireViewer(req, res), contentType, req.params.id, body);
      res.status(201).json({ reported: true });
    });
  }

  router.get('/admin/moderation/queue', async (_req, res) => {
    res.json(await service.queue(viewerOf(res)));
  });

  router.post('/admin/moderation/:queueId', async (req, res) => {
    const { decision, notes } = parseInput(moderationDecisionBodySchema, req.body);
    res.json(await service.decide(viewerOf(res), req.params.queueId, decision, notes));
  });

  router.get('/admin/stats', async (_req, res) => {
    const [figures, readiness] = await Promise.all([
      stats.stats(),
      checkReadiness(health.db, health.redis),
    ]);
    res.json({
      ...figures,
      health: { ...readiness.checks, imageCheck: health.imageCheckState() },
    });
  });

  router.get('/analytics/popular', async (req, res) => {
    requireAccess(viewerOf(res), 'admin', null);
    const { timeframe, limit } = parseInput(popularQuerySchema, req.query);
    res.json(await stats.popular(timeframe, limit));
  });

  return router;
}
