import { LIVE_NAMESPACE, type LiveEventName, type LiveEvents } from '@tapgram/shared';
import { parse } from 'cookie';
import type { Namespace, Server as SocketServer, Socket } from 'socket.io';
import { SESSION_COOKIE, type Session, type SessionStore } from '../accounts';
import type { Logger } from '../core/logger';

const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;

/** The longest delay a timer takes; a session that lasts longer is looked at again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

const NOT_SIGNED_IN = 'Not signed in';
const UNAVAILABLE = 'Live channel unavailable: try again';

function sessionToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  const token = parse(cookieHeader)[SESSION_COOKIE];
  return token ? token : null;
}

/**
 * The signed-in live channel: a namespace whose handshake takes only a session that lasts (the
 * engine's `allowRequest` has already refused other sites' pages, on every namespace), with one
 * room per user and one per session. A socket ends with its session: at its expiry, and when it is
 * signed out (`endSession`, on whichever node holds the socket).
 */
export class LiveChannel {
  private namespace: Namespace | null = null;
  private readonly expiries = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly sessions: SessionStore,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  attach(io: SocketServer): void {
    const namespace = io.of(LIVE_NAMESPACE);
    namespace.use((socket, next) => {
      const token = sessionToken(socket.handshake.headers.cookie);
      if (!token) return next(new Error(NOT_SIGNED_IN));
      this.sessions.session(token).then(
        (session) => {
          if (!session) return next(new Error(NOT_SIGNED_IN));
          (socket.data as { session?: Session }).session = session;
          next();
        },
        (err: unknown) => {
          this.logger.error({ err }, 'live channel: session lookup failed');
          next(new Error(UNAVAILABLE));
        },
      );
    });
    namespace.on('connection', (socket) => {
      const { session } = socket.data as { session: Session };
      void socket.join([userRoom(session.viewer.id), sessionRoom(session.id)]);
      this.endAtExpiry(socket, session.expiresAt.getTime());
      socket.on('disconnect', () => {
        clearTimeout(this.expiries.get(socket.id));
        this.expiries.delete(socket.id);
      });
    });
    this.namespace = namespace;
  }

  /** Pushes to every socket of the user, on whichever node holds it. */
  toUser<K extends LiveEventName>(userId: string, event: K, payload: LiveEvents[K]): void {
    this.namespace?.to(userRoom(userId)).emit(event, payload);
  }

  /** Disconnects the sockets of a session that ended, on every node. */
  endSession(sessionId: string): void {
    this.namespace?.in(sessionRoom(sessionId)).disconnectSockets(true);
  }

  close(): void {
    for (const timer of this.expiries.values()) clearTimeout(timer);
    this.expiries.clear();
  }

  private endAtExpiry(socket: Socket, expiresAt: number): void {
    const left = expiresAt - this.now();
    if (left <= 0) {
      socket.disconnect(true);
      return;
    }
    const timer = setTimeout(
      () => {
        if (left > LONGEST_TIMER_MS) this.endAtExpiry(socket, expiresAt);
        else socket.disconnect(true);
      },
      Math.min(left, LONGEST_TIMER_MS),
    );
    timer.unref();
    this.expiries.set(socket.id, timer);
  }
}
