import type { ReadinessCheck } from '@tapgram/shared';
import type { Router } from 'express';
import type { Server as SocketServer } from 'socket.io';
import type { Admission } from './admission';
import type { Config } from './config';
import type { Database } from './db';
import type { EventBus } from './events';
import type { FastRoute } from './fast-route';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { Redis } from './redis';

/** What every feature is built from: the configuration and the services opened at start-up. */
export interface FeatureDeps {
  config: Config;
  logger: Logger;
  db: Database;
  redis: Redis | null;
  /** The domain events of this node (relayed between nodes through Redis when it is configured). */
  events: EventBus;
  /** This server's metrics (each server has its own registry). */
  metrics: Metrics;
  /** What the process takes on before it refuses new work (503). */
  admission?: Admission;
  /** Signs cookies; from SESSION_SECRET or generated once under DATA_DIR. */
  secret: string;
  /** The clock of in-process limits and of the game's signals; tests set it. Date.now when not given. */
  now?: () => number;
}

/** Builds the product's features; the server is handed it (core imports no feature). */
export type FeaturesFactory = (deps: FeatureDeps) => Promise<Feature[]>;

/** A slice of the product (game, LOLGram): its routes, its socket handlers, its shutdown. */
export interface Feature {
  name: string;
  /** Mounted under /api. */
  router?: Router;
  /** Hot endpoints served without the Express stack, keyed "METHOD /api/path". */
  fastRoutes?: Record<string, FastRoute>;
  attachSocket?(io: SocketServer): void;
  /**
   * Tags for the `<head>` of the app's page at `pathname` (link previews: Open Graph, Twitter
   * card; preloads), every value already escaped; null when the page has none. `origin` is this
   * site's, for absolute links, null when it is not known (tags that need it are left out). Asked
   * for every page served, so it must stay cheap (a cache, one indexed query); a failure or a slow
   * answer serves the page without them.
   */
  pageHead?(page: { pathname: string; origin: string | null }): Promise<string | null>;
  /**
   * The feature's own readiness checks, by name, for `/readyz` (any `down` or `behind` makes it
   * 503). Read at each call: it answers from state the feature holds, without I/O.
   */
  readiness?(): Record<string, ReadinessCheck>;
  /** Called at start-up, before the server listens (background work may go on after). */
  start?(): Promise<void>;
  /** Called on shutdown after the HTTP server stopped accepting, before pools close. */
  close?(): Promise<void>;
}
