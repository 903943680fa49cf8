import type { Router } from 'express';
import type { Server as SocketServer } from 'socket.io';

/** A slice of the product (game, lolgram, admin): its routes, its socket handlers, its shutdown. */
export interface Feature {
  name: string;
  /** Mounted under /api. */
  router?: Router;
  attachSocket?(io: SocketServer): void;
  /** Called on shutdown after the HTTP server stopped accepting, before pools close. */
  close?(): Promise<void>;
}
