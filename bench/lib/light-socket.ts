import WebSocket from 'ws';

/**
 * A game-channel client for the load generator: the Socket.IO protocol (Engine.IO 4, websocket
 * transport) spoken directly, as socket.io-client would, without its per-message overhead, and
 * without reading the pushes it is not asked to read. The server sees the same frames; the load
 * generator just leaves more of the machine to it.
 */
export class LightSocket {
  private nextAck = 0;
  private readonly acks = new Map<number, (payload: unknown) => void>();
  private readonly listeners = new Map<string, (payload: unknown) => void>();

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      // A push nobody here reads ('42[' ...) is not even decoded.
      const push = data[0] === 0x34 && data[1] === 0x32 && data[2] === 0x5b;
      if (!push || this.listeners.size > 0) this.receive(data.toString());
    });
  }

  /**
   * `auth` is the handshake's payload (the options a client opts into), as socket.io-client sends
   * it; `headers` go with the upgrade request (X-Forwarded-For behind a trusted proxy, say).
   */
  static connect(
    url: string,
    cookie?: string,
    auth?: object,
    headers: Record<string, string> = {},
  ): Promise<LightSocket> {
    const address = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
    const ws = new WebSocket(address, {
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      perMessageDeflate: false,
    });
    const socket = new LightSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('error', reject);
      ws.on('message', function opened(data: Buffer) {
        const text = data.toString();
        if (text.startsWith('0')) ws.send(auth ? `40${JSON.stringify(auth)}` : '40');
        if (text.startsWith('40')) {
          ws.off('message', opened);
          resolve(socket);
        }
        if (text.startsWith('44')) reject(new Error(`connection refused: ${text.slice(2)}`));
      });
    });
  }

  /** Reads the pushes of `event` (parsing only those). */
  on(event: string, listener: (payload: unknown) => void): void {
    this.listeners.set(event, listener);
  }

  emitWithAck(event: string, payload: unknown, timeoutMs = 30_000): Promise<unknown> {
    const id = this.nextAck++;
    this.ws.send(`42${id}${JSON.stringify([event, payload])}`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.acks.delete(id);
        reject(new Error('ack timeout'));
      }, timeoutMs);
      this.acks.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  }

  close(): void {
    this.ws.close();
  }

  private receive(text: string): void {
    if (text === '2') {
      this.ws.send('3');
    } else if (text.startsWith('43')) {
      const start = text.indexOf('[');
      const id = Number(text.slice(2, start));
      const [answer] = JSON.parse(text.slice(start)) as [unknown];
      this.acks.get(id)?.(answer);
      this.acks.delete(id);
    } else if (text.startsWith('42[') && this.listeners.size > 0) {
      const [event, payload] = JSON.parse(text.slice(2)) as [string, unknown];
      this.listeners.get(event)?.(payload);
    }
  }
}
