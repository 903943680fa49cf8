import fs from 'node:fs';
import path from 'node:path';
import { APP_SHELL, isAppPage, PRERENDERED_PAGES, prerenderedFile } from '@tapgram/shared/routes';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import express, { type Express, type Request } from 'express';
import expressStaticGzip from 'express-static-gzip';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { proxyTrust } from './proxy-trust';
import type { Config } from './config';
import type { Queryable } from './db';
import { apiNotFound, errorHandler } from './errors';
import type { Feature } from './feature';
import { healthRouter } from './health';
import { sameOriginWrites } from './origin';
import { siteOriginResolver } from './site-origin';
import type { Logger } from './logger';
import type { Metrics, MetricsHandler } from './metrics';
import type { Redis } from './redis';
import { COMPRESS_THRESHOLD_BYTES } from './fast-route';
import { requestId } from './request-id';
import { rejectBadUrls } from './request-url';

export interface AppDeps {
  config: Config;
  logger: Logger;
  db: Queryable;
  redis: Redis | null;
  features: Feature[];
  metrics: Metrics;
  /** Serves GET /metrics on this app; unset, /metrics is an unknown path like any other. */
  metricsEndpoint?: MetricsHandler;
  /** Signs cookies. */
  secret: string;
  /** The built frontend; served with the SPA fallback when it exists. */
  webDir?: string;
}

const SOLANA_DEVNET = ['https://api.devnet.solana.com', 'wss://api.devnet.solana.com'];
/** Telegram's web client, which shows a Mini App in an iframe of its own page. */
const TELEGRAM_WEB = 'https://web.telegram.org';

/**
 * helmet's headers for the web app's pages and files. Pages may be framed by this site only, and
 * by Telegram's web client when the game runs as a Mini App.
 */
export function securityHeaders(config: Config) {
  const telegram = config.TELEGRAM_BOT_TOKEN !== undefined;
  return helmet({
    contentSecurityPolicy: {
      directives: {
        'connect-src': ["'self'", ...SOLANA_DEVNET],
        'img-src': ["'self'", 'data:', 'blob:'],
        'frame-ancestors': telegram ? ["'self'", TELEGRAM_WEB] : ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    // X-Frame-Options cannot name another site: frame-ancestors says it, for every browser since 2016.
    xFrameOptions: telegram ? false : { action: 'sameorigin' },
    strictTransportSecurity: config.isProduction,
  });
}

/**
 * helmet's headers for API answers (fast routes answer with the same set): JSON is never rendered,
 * so its policy forbids everything and framing, as OWASP advises for REST, instead of carrying the
 * pages' long policy on every tap.
 */
export function apiSecurityHeaders(config: Config) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    strictTransportSecurity: config.isProduction,
  });
}

/**
 * Keeps, for `req`, the whole pattern of the last route that took it (`/api/users/:id`), never the
 * path a client wrote, so that the metrics keep a bounded set of series; `(none)` for static files
 * and paths no route took. It is read when the router sets req.route: by the time an error is
 * answered the routers have unwound and req.baseUrl no longer holds their mount paths.
 */
function trackRoute(req: Request): () => string {
  let pattern = '(none)';
  let route: unknown;
  Object.defineProperty(req, 'route', {
    configurable: true,
    enumerable: true,
    get: () => route,
    set(value: { path?: unknown } | undefined) {
      route = value;
      if (typeof value?.path === 'string') pattern = req.baseUrl + value.path;
    },
  });
  return () => pattern;
}

/**
 * The service worker, the web app manifest and the HTML files (and their compressed copies): they
 * name the hashed assets of the current version, so that a client always asks whether they changed.
 */
const ALWAYS_FRESH = /(?:\/sw\.js|\.webmanifest|\.html)(?:\.br|\.gz)?$/;

/**
 * The HTML file for each page of the built app in `webDir`: the prerendered pages' own (see
 * PRERENDERED_PAGES), the plain shell for the others and for unknown paths. A build without the
 * prerendered files serves its index.html for all. Null when there is no built app.
 */
function pageFiles(webDir: string): ((pathname: string) => string) | null {
  const index = path.join(webDir, 'index.html');
  if (!fs.existsSync(index)) return null;
  const shell = path.join(webDir, APP_SHELL);
  if (!fs.existsSync(shell)) return () => index;
  const pages = new Map<string, string>(
    PRERENDERED_PAGES.map((page) => [page, path.join(webDir, prerenderedFile(page))]),
  );
  return (pathname) => pages.get(pathname) ?? shell;
}

/** The longest a feature's page tags may take: after it, the page goes without them. */
export const PAGE_HEAD_TIMEOUT_MS = 1000;

/**
 * The tags the features give for a page's `<head>` (the first that has some), or null: a feature
 * that fails or takes too long leaves the page as it is, never an error.
 */
function pageHeads(features: Feature[], config: Config, logger: Logger) {
  const heads = features.flatMap((feature) =>
    feature.pageHead ? [feature.pageHead.bind(feature)] : [],
  );
  const siteOrigin = siteOriginResolver(config.PUBLIC_ORIGIN);
  return async (req: Request): Promise<string | null> => {
    if (heads.length === 0) return null;
    const page = { pathname: req.path, origin: siteOrigin(req) };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), PAGE_HEAD_TIMEOUT_MS);
    });
    try {
      for (const head of heads) {
        const tags = await Promise.race([head(page), late]);
        if (tags) return tags;
      }
      return null;
    } catch (err) {
      logger.warn({ err }, 'page head tags failed');
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The HTML files of the built app, read once each. */
function htmlFiles() {
  const read = new Map<string, Promise<string>>();
  return (file: string) => {
    let html = read.get(file);
    if (!html) {
      html = fs.promises.readFile(file, 'utf8');
      read.set(file, html);
      html.catch(() => read.delete(file));
    }
    return html;
  };
}

export function createApp({
  config,
  logger,
  db,
  redis,
  features,
  metrics,
  metricsEndpoint: serveMetrics,
  secret,
  webDir,
}: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', proxyTrust(config.TRUST_PROXY));

  app.use((req, res, next) => {
    const started = performance.now();
    const routeOf = trackRoute(req);
    res.on('finish', () => {
      metrics.httpRequest(
        req.method,
        routeOf(),
        res.statusCode,
        (performance.now() - started) / 1000,
      );
    });
    next();
  });

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const id = requestId(req);
        res.setHeader('x-request-id', id);
        return id;
      },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url,
        }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
      autoLogging: { ignore: (req) => req.url === '/healthz' },
    }),
  );
  const pageHeaders = securityHeaders(config);
  const apiHeaders = apiSecurityHeaders(config);
  app.use((req, res, next) =>
    (req.path.startsWith('/api/') ? apiHeaders : pageHeaders)(req, res, next),
  );
  app.use(rejectBadUrls);
  app.use(
    healthRouter(db, redis, () =>
      Object.assign({}, ...features.map((feature) => feature.readiness?.() ?? {})),
    ),
  );
  if (serveMetrics) app.get('/metrics', serveMetrics);

  const api = express.Router();
  // JSON answers above a small size go out compressed (the fast routes do the same).
  api.use(compression({ threshold: COMPRESS_THRESHOLD_BYTES }));
  // Every feature's writes, before their bodies are read (the fast routes do the same).
  api.use(sameOriginWrites(config.PUBLIC_ORIGIN));
  api.use(express.json({ limit: '100kb' }));
  api.use(cookieParser(secret));
  for (const feature of features) {
    if (feature.router) api.use(feature.router);
  }
  api.use(apiNotFound);
  app.use('/api', api);

  const pageFor = webDir ? pageFiles(webDir) : null;
  if (webDir && pageFor) {
    // Hashed assets never change: cached for a year, sent as the brotli or gzip copy the build
    // made when the browser takes it.
    app.use(
      '/assets',
      expressStaticGzip(path.join(webDir, 'assets'), {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        serveStatic: { immutable: true, maxAge: '1y', fallthrough: false },
      }),
    );
    app.use(
      expressStaticGzip(webDir, {
        enableBrotli: true,
        orderPreference: ['br', 'gzip'],
        index: false,
        serveStatic: {
          index: false,
          // A prerendered page's folder (play/) is no reason to redirect /play to /play/.
          redirect: false,
          maxAge: '1h',
          // Checked with the server at every use: what names the current version's files.
          setHeaders: (res, file) => {
            if (ALWAYS_FRESH.test(file)) res.setHeader('Cache-Control', 'no-cache');
          },
        },
      }),
    );
    // The app for its own pages (a prerendered page's own HTML, else the plain shell); any other
    // path gets its "Page Not Found" with a real 404.
    // A page may carry tags for its link preview, which a feature gives (a post's, a profile's).
    const headFor = pageHeads(features, config, logger);
    const html = htmlFiles();
    app.get('/{*splat}', compression({ threshold: COMPRESS_THRESHOLD_BYTES }), async (req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      const known = isAppPage(req.path);
      res.status(known ? 200 : 404);
      const file = pageFor(req.path);
      const head = known ? await headFor(req) : null;
      if (!head) return res.sendFile(file);
      const page = await html(file);
      // A function, so that no `$&` in a caption is read as a replacement pattern.
      res.type('html').send(page.replace('</head>', () => `${head}\n  </head>`));
    });
  }

  // Anything else (a POST to a page, say) is a 404 in the API's shape, not Express's HTML.
  app.use(apiNotFound);
  app.use(errorHandler);
  return app;
}
