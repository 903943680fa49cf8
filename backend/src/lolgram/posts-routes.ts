import { randomBytes } from 'node:crypto';
import { createPostFieldsSchema, feedQuerySchema, postViewsBodySchema } from '@tapgram/shared';
import { parse as parseCookies } from 'cookie';
import type { FastRoute } from '../core/fast-route';
import { SESSION_COOKIE, type SessionStore } from './sessions';
import { Router, type Request, type Response } from 'express';
import { parseInput, ValidationError } from '../core/errors';
import type { PostsService } from './posts-service';
import { singleImage } from './upload';
import { requireViewer, viewerOf } from './viewer';

const VIEWER_COOKIE = 'lg_viewer';

/** Who viewed: the signed-in user, or an anonymous id kept in a cookie for this browser. */
function viewerKey(req: Request, res: Response): string {
  const viewer = viewerOf(res);
  if (viewer) return `u:${viewer.id}`;
  const existing: unknown = req.cookies?.[VIEWER_COOKIE];
  if (typeof existing === 'string' && /^[\w-]{16,64}$/.test(existing)) return `a:${existing}`;
  const id = randomBytes(16).toString('base64url');
  res.cookie(VIEWER_COOKIE, id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    maxAge: 31_536_000_000,
  });
  return `a:${id}`;
}

function parseLocation(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ValidationError('location must be JSON: {"name", "lat", "lng"}');
  }
}

export function postsRouter(service: PostsService): Router {
  const router = Router();

  router.post(
    '/posts',
    (req, res, next) => {
      requireViewer(req, res);
      next();
    },
    singleImage('image'),
    async (req, res) => {
      const body = req.body as Record<string, unknown>;
      const fields = parseInput(createPostFieldsSchema, {
        ...body,
        location: parseLocation(body.location),
      });
      const post = await service.create(requireViewer(req, res), fields, req.file!.buffer);
      res.status(201).json({ ...post, moderation: 'checking' });
    },
  );

  router.get('/posts/user/:userId', async (req, res) => {
    res.json(await service.byUser(viewerOf(res), req.params.userId));
  });

  router.post('/posts/views', async (req, res) => {
    const { postIds } = parseInput(postViewsBodySchema, req.body);
    await service.recordViews(postIds, viewerKey(req, res));
    res.status(204).end();
  });

  router.post('/posts/:id/lol', async (req, res) => {
    res.json(await service.setLol(requireViewer(req, res), req.params.id, true));
  });

  router.delete('/posts/:id/lol', async (req, res) => {
    res.json(await service.setLol(requireViewer(req, res), req.params.id, false));
  });

  return router;
}

/** Images are immutable under their key (a new upload gets a new key): cached for a year. */
export function imagesRouter(service: PostsService): Router {
  const router = Router();
  router.get('/images/{*key}', async (req, res) => {
    const key = (req.params as { key: string[] }).key.join('/');
    const bytes = await service.image(key);
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(bytes);
  });
  return router;
}

/** The feed is what every visitor reads first: it is served without the Express stack. */
export function feedFastRoute(
  service: PostsService,
  sessions: SessionStore,
): Record<string, FastRoute> {
  return {
    'GET /api/lolgram/posts/feed': async ({ query, headers }) => {
      const { limit, before } = parseInput(feedQuerySchema, Object.fromEntries(query));
      const token = headers.cookie ? parseCookies(headers.cookie)[SESSION_COOKIE] : undefined;
      const viewer = token ? await sessions.viewerByToken(token) : null;
      return { status: 200, body: await service.feed(viewer, limit, before) };
    },
  };
}
