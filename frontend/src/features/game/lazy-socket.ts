// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listeners take what each event carries
type Listener = (...args: any[]) => void;
/** An answer is what the server sent, unchecked, as socket.io types it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as socket.io's own emitWithAck
type Answer = any;

/** What the game's screens use of the channel's socket.io client socket. */
export interface GameSocket {
  readonly connected: boolean;
  on(event: string, listener: Listener): this;
  off(event: string, listener: Listener): this;
  emit(event: string, ...args: unknown[]): this;
  /** The next `emitWithAck` rejects when no answer comes within `ms`. */
  timeout(ms: number): { emitWithAck(event: string, ...args: unknown[]): Promise<Answer> };
  connect(): this;
  disconnect(): this;
}

/** A message asked for before the socket existed: sent once it does. */
type Waiting = (socket: GameSocket) => void;

/** After a failed load of the client's code (the network dropped): when to try again. */
const RELOAD_MS = 5000;

/**
 * The game channel's socket, whose client code (socket.io, about 13 KB gzipped) loads after the
 * page has started instead of with it. Until it has loaded it is not connected, and what is asked
 * of it is kept and applied once it exists: listeners are registered in their order (so a screen
 * subscribed before hears the first `connect`), messages are sent (socket.io holds them until it is
 * connected, as it would have), and a message awaiting an answer times out from when it was asked,
 * as socket.io's own would (and is then not sent at all). Meanwhile the taps go the way they go
 * whenever the channel is not connected: posted, and kept on the device until counted.
 */
export class LazySocket implements GameSocket {
  private socket: GameSocket | null = null;
  private loading: Promise<GameSocket> | null = null;
  private readonly listeners: [string, Listener][] = [];
  private readonly waiting = new Set<Waiting>();

  constructor(private readonly load: () => Promise<GameSocket>) {}

  get connected(): boolean {
    return this.socket?.connected ?? false;
  }

  /** Loads the client and opens the channel, once; resolves when the socket exists. */
  open(): Promise<GameSocket> {
    this.loading ??= this.load().then(
      (socket) => {
        this.socket = socket;
        for (const [event, listener] of this.listeners.splice(0)) socket.on(event, listener);
        for (const send of [...this.waiting]) send(socket);
        this.waiting.clear();
        return socket;
      },
      (error: unknown) => {
        this.loading = null;
        setTimeout(() => void this.open().catch(() => undefined), RELOAD_MS);
        throw error;
      },
    );
    return this.loading;
  }

  on(event: string, listener: Listener): this {
    if (this.socket) this.socket.on(event, listener);
    else this.listeners.push([event, listener]);
    return this;
  }

  off(event: string, listener: Listener): this {
    if (this.socket) {
      this.socket.off(event, listener);
      return this;
    }
    const at = this.listeners.findIndex(([e, l]) => e === event && l === listener);
    if (at >= 0) this.listeners.splice(at, 1);
    return this;
  }

  emit(event: string, ...args: unknown[]): this {
    if (this.socket) this.socket.emit(event, ...args);
    else this.whenOpen((socket) => socket.emit(event, ...args));
    return this;
  }

  timeout(ms: number): { emitWithAck(event: string, ...args: unknown[]): Promise<Answer> } {
    const socket = this.socket;
    if (socket) return socket.timeout(ms);
    return {
      emitWithAck: (event, ...args) =>
        new Promise((resolve, reject) => {
          const asked = Date.now();
          const send: Waiting = (s) => {
            clearTimeout(timer);
            const left = Math.max(0, ms - (Date.now() - asked));
            s.timeout(left)
              .emitWithAck(event, ...args)
              .then(resolve, reject);
          };
          const timer = setTimeout(() => {
            this.waiting.delete(send);
            reject(new Error('operation has timed out'));
          }, ms);
          this.whenOpen(send);
        }),
    };
  }

  /** Opens the channel now, if it was not yet asked to. */
  connect(): this {
    if (this.socket) this.socket.connect();
    else void this.open().catch(() => undefined);
    return this;
  }

  /** Before the socket exists there is no connection to close. */
  disconnect(): this {
    this.socket?.disconnect();
    return this;
  }

  private whenOpen(send: Waiting) {
    this.waiting.add(send);
    void this.open().catch(() => undefined);
  }
}
