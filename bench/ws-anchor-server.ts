// The anchor of the game channel's CPU: a bare `ws` server doing the least the game channel must
// do for a player, at the game screen's sizes and rates: it takes one tap batch in, answers one
// acknowledgement of the compact protocol's size, and sends one board delta of 1.9 KB a second.
// It speaks just enough of Engine.IO / Socket.IO (the open packet, the namespace's connect, acks)
// for the benchmark's load generator to drive it as it drives the game server; it counts nothing,
// keeps nothing and reads nothing but the ack's number.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** A compact acknowledgement as the game server sends it (`43<id>[{...}]`), typical figures. */
const ACK_BODY = JSON.stringify([
  {
    ok: true,
    accepted: 10,
    totalPoints: 1_234_567,
    totalTaps: 1_234_567,
    sessionPoints: 12_345,
    sessionTaps: 12_345,
    seq: 123,
    durableSeq: 122,
  },
]);
/** A board delta of 1.9 KB: rows of players whose points moved, as the top 100 delta carries. */
const DELTA = (() => {
  const rows = [];
  for (let i = 0; rows.length === 0 || JSON.stringify(rows).length < 1850; i += 1) {
    rows.push({
      id: `0b9f${String(i).padStart(4, '0')}-3c1a-4d2e-9f10-2a7c5e8b`,
      totalPoints: 1_000_000 + i,
    });
  }
  return `42${JSON.stringify(['boards:delta', { detail: 'top100', users: rows }])}`.slice(0, 1900);
})();
const PUSH_EVERY_MS = 1000;

const server = http.createServer((_req, res) => {
  res.writeHead(404);
  res.end();
});
const wss = new WebSocketServer({ server, perMessageDeflate: false });
const open = new Set<WebSocket>();
let sid = 0;

wss.on('connection', (ws) => {
  sid += 1;
  ws.send(
    `0{"sid":"a${sid}","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}`,
  );
  ws.on('message', (data: Buffer) => {
    // `40...`: the namespace's connect; `42<id>[...]`: a tap batch, answered at once.
    if (data[0] === 0x34 && data[1] === 0x30) {
      ws.send(`40{"sid":"s${sid}"}`);
      open.add(ws);
    } else if (data[0] === 0x34 && data[1] === 0x32) {
      const text = data.toString();
      ws.send(`43${text.slice(2, text.indexOf('['))}${ACK_BODY}`);
    }
  });
  ws.on('close', () => open.delete(ws));
});

// Each player's delta a second, spread over the second as the game server's ticks spread them.
const slices = 10;
let slice = 0;
setInterval(() => {
  let i = 0;
  for (const ws of open) {
    if (i % slices === slice) ws.send(DELTA);
    i += 1;
  }
  slice = (slice + 1) % slices;
}, PUSH_EVERY_MS / slices);

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`anchor listening at http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => process.exit(0));
