import { commentsQuerySchema, createCommentBodySchema } from '@tapgram/shared';
import { Router } from 'express';
import { requireAccess, requireViewer, viewerOf } from '../../accounts';
import { parseInput } from '../../core/errors';
import type { CommentSignalsRepository } from './comment-signals';
import type { CommentsService } from './comments-service';

export function commentsRouter(
  service: CommentsService,
  signals: Pick<CommentSignalsRepository, 'recent'>,
): Router {
  const router = Router();

  router.get('/admin/comment-signals', async (_req, res) => {
    requireAccess(viewerOf(res), 'admin', null);
    res.json(await signals.recent());
  });

  router.get('/posts/:id/comments', async (req, res) => {
    const page = parseInput(commentsQuerySchema, req.query);
    res.json(await service.thread(viewerOf(res), req.params.id, page));
  });

  router.post('/posts/:id/comments', async (req, res) => {
    const viewer = requireViewer(req, res);
    const body = parseInput(createCommentBodySchema, req.body);
    res.status(201).json(await service.create(viewer, req.params.id, body));
  });

  router.delete('/comments/:id', async (req, res) => {
    await service.delete(requireViewer(req, res), req.params.id);
    res.status(204).end();
  });

  router.put('/posts/:id/comments-off', async (req, res) => {
    res.json(await service.setCommentsOff(requireViewer(req, res), req.params.id, true));
  });

  router.delete('/posts/:id/comments-off', async (req, res) => {
    res.json(await service.setCommentsOff(requireViewer(req, res), req.params.id, false));
  });

  return router;
}
