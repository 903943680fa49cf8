import {
  type Post,
  createPostFieldsSchema,
  editPostBodySchema,
  feedQuerySchema,
  idSchema,
  postViewsBodySchema,
  userPostsQuerySchema,
} from '@tapgram/shared';
import { parse as parseCookies } from 'cookie';
import { Router } from 'express';
import { RawJson, type FastRoute } from '../../core/fast-route';
import { parseInput, ValidationError } from '../../core/errors';
import type { OwnPostsService } from './own-posts-service';
import type { PostsService } from './posts-service';
import { SESSION_COOKIE, type SessionStore } from '../../accounts';
import { imageContentType } from '../../images';
import { singleImage } from '../../images';
import { requireViewer, signedInOnly, viewerOf, viewKey } from '../../accounts';

function parseLocation(raw: unknown): unknown {
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ValidationError('location must be JSON: {"name", "lat", "lng"}');
  }
}

export function postsRouter(service: PostsService, own: OwnPostsService): Router {
  const router = Router();

  router.post('/posts', signedInOnly, singleImage('image'), async (req, res) => {
    const body = req.body as Record<string, unknown>;
    const fields = parseInput(createPostFieldsSchema, {
      ...body,
      location: parseLocation(body.location),
    });
    // The post is 'checking' (its `moderation` says so) until the automatic check ends.
    res.status(201).json(await service.create(requireViewer(req, res), fields, req.file!.buffer));
  });

  router.get('/posts/user/:userId', async (req, res) => {
    const page = parseInput(userPostsQuerySchema, req.query);
    res.json(await service.byUser(viewerOf(res), req.params.userId, page));
  });

  router.post('/posts/views', async (req, res) => {
    const { postIds } = parseInput(postViewsBodySchema, req.body);
    await service.recordViews(postIds, viewKey(req, res));
    res.status(204).end();
  });

  // Before /posts/:id, which would take "located" for an id.
  router.get('/posts/located', async (req, res) => {
    const page = parseInput(feedQuerySchema, req.query);
    res.json(await service.located(viewerOf(res), page));
  });

  router.get('/posts/located/count', async (_req, res) => {
    res.json(await service.locatedCount(viewerOf(res)));
  });

  router.get('/posts/:id', async (req, res) => {
    const id = parseInput(idSchema, req.params.id);
    res.json(await service.one(viewerOf(res), id));
  });

  router.patch('/posts/:id', async (req, res) => {
    const viewer = requireViewer(req, res);
    const { caption } = parseInput(editPostBodySchema, req.body);
    res.json(await own.editCaption(viewer, req.params.id, caption));
  });

  router.delete('/posts/:id', async (req, res) => {
    await own.delete(requireViewer(req, res), req.params.id);
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

/**
 * Images are immutable under their key (a new upload gets a new key): a browser keeps a public one
 * for a year, a shared cache (a CDN) for ten minutes, so that a post a moderator rejects stops
 * being served everywhere soon after. Images of a post not public yet are for its author and
 * admins only, and never stored.
 */
const PUBLIC_IMAGE_CACHE = 'public, max-age=31536000, s-maxage=600, immutable';

export function imagesRouter(service: PostsService, sessions: SessionStore): Router {
  const router = Router();
  router.get('/images/{*key}', async (req, res) => {
    const key = (req.params as { key: string[] }).key.join('/');
    const { bytes, isPublic } = await service.image(key, () => sessions.viewer(req));
    res.setHeader('Content-Type', imageContentType(key));
    res.setHeader('Cache-Control', isPublic ? PUBLIC_IMAGE_CACHE : 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(bytes);
  });
  return router;
}

/** A page is serialized once: the shared first page, however many anonymous readers get it. */
const serialized = new WeakMap<readonly Post[], RawJson>();
function jsonOnce(posts: readonly Post[]): RawJson {
  let json = serialized.get(posts);
  if (!json) {
    json = new RawJson(JSON.stringify(posts));
    serialized.set(posts, json);
  }
  return json;
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
      return { status: 200, body: jsonOnce(await service.feed(viewer, limit, before)) };
    },
  };
}
