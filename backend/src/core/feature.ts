import type { Router } from 'express';
import type { Server as SocketServer } from 'socket.io';
import type { FastRoute } from './fast-route';

/** A slice of the product (game, lolgram, admin): its routes, its socket handlers, its shutdown. */
export interface Feature {
  name: string;
  /** Mounted under /api. */
  router?: Router;
  /** Hot endpoints served without the Express stack, keyed "METHOD /api/path". */
  fastRoutes?: Record<string, FastRoute>;
  attachSocket?(io: SocketServer): void;
  /** Called at start-up, before the server listens (background work may go on after). */
  start?(): Promise<void>;
  /** Called on shutdown after the HTTP server stopped accepting, before pools close. */
  close?(): Promise<void>;
}
