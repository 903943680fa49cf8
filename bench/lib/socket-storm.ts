// One address opening game sockets as fast as STORM_PER_SECOND, in a process of its own so that
// its loop does not slow the clients being measured. Each socket completes the handshake as
// socket.io-client does, asks for nothing (so it is sent the boards whole) and stays open until
// STORM_SECONDS are over; a refused handshake is counted and not retried (the next opening comes
// anyway). Prints one JSON line with what it opened and what was refused.
import WebSocket from 'ws';

const url = process.env.STORM_URL!;
const address = process.env.STORM_ADDRESS ?? '198.51.100.7';
const perSecond = Number(process.env.STORM_PER_SECOND ?? 400);
const seconds = Number(process.env.STORM_SECONDS ?? 10);

const totals = { attempted: 0, connected: 0, refused: 0, failed: 0, heldAtEnd: 0 };
const open = new Set<WebSocket>();

function openOne() {
  totals.attempted += 1;
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, {
    headers: { 'x-forwarded-for': address },
    perMessageDeflate: false,
  });
  let answered = false;
  ws.on('unexpected-response', (_req, res) => {
    answered = true;
    totals.refused += 1;
    res.resume();
    ws.terminate();
  });
  ws.on('message', (data: Buffer) => {
    // Only the handshake and pings are read; pushes are left undecoded.
    if (data[0] === 0x30) ws.send('40');
    else if (data[0] === 0x34 && data[1] === 0x30) {
      answered = true;
      totals.connected += 1;
      open.add(ws);
    } else if (data.length === 1 && data[0] === 0x32) ws.send('3');
  });
  ws.on('error', () => {
    if (!answered) totals.failed += 1;
    answered = true;
  });
  ws.on('close', () => open.delete(ws));
}

const started = performance.now();
const interval = 10;
let due = 0;
const timer = setInterval(() => {
  const elapsed = (performance.now() - started) / 1000;
  if (elapsed >= seconds) {
    clearInterval(timer);
    totals.heldAtEnd = open.size;
    for (const ws of open) ws.terminate();
    process.stdout.write(
      `${JSON.stringify({ ...totals, seconds: Math.round(elapsed * 10) / 10 })}\n`,
    );
    setTimeout(() => process.exit(0), 200);
    return;
  }
  // Catches up after a late tick, so the rate holds on a busy machine.
  const target = Math.floor(elapsed * perSecond);
  for (; due < target; due += 1) openOne();
}, interval);
