// One attacker on the game channel, in a process of its own so that its loop does not slow the
// clients being measured: tap messages from one socket as fast as the server takes them
// (FLOOD_IN_FLIGHT unanswered at a time) for FLOOD_SECONDS, and with FLOOD_RECONNECT=1 opening a
// new socket whenever the server drops one. Prints one JSON line with what it sent and got back.
import WebSocket from 'ws';

const url = process.env.FLOOD_URL!;
const cookie = process.env.FLOOD_COOKIE!;
const sessionId = process.env.FLOOD_SESSION!;
const seconds = Number(process.env.FLOOD_SECONDS ?? 5);
const inFlightLimit = Number(process.env.FLOOD_IN_FLIGHT ?? 2000);
const reconnect = process.env.FLOOD_RECONNECT === '1';

const totals = { sent: 0, ok: 0, refused429: 0, refusedOther: 0, connections: 0, dropped: 0 };
const deadline = Date.now() + seconds * 1000;

/** One connection, flooded until the server drops it or time is up. */
function floodOnce(): Promise<void> {
  const address = `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
  const ws = new WebSocket(address, { headers: { cookie }, perMessageDeflate: false });
  totals.connections += 1;
  let inFlight = 0;
  let nextId = 0;
  const frame = (id: number) => `42${id}["tap",{"sessionId":"${sessionId}","count":1}]`;
  const fill = () => {
    while (ws.readyState === WebSocket.OPEN && inFlight < inFlightLimit && Date.now() < deadline) {
      ws.send(frame(nextId++));
      inFlight += 1;
      totals.sent += 1;
    }
    if (Date.now() >= deadline) ws.close();
  };
  return new Promise((resolve) => {
    ws.on('message', (data: Buffer) => {
      const text = data.toString();
      if (text.startsWith('0')) ws.send('40');
      else if (text.startsWith('40')) fill();
      else if (text === '2') ws.send('3');
      else if (text.startsWith('43')) {
        inFlight -= 1;
        const answer = JSON.parse(text.slice(text.indexOf('['))) as [
          { ok: boolean; status?: number },
        ];
        if (answer[0].ok) totals.ok += 1;
        else if (answer[0].status === 429) totals.refused429 += 1;
        else totals.refusedOther += 1;
        if (inFlight < inFlightLimit / 2) fill();
      } else if (text.startsWith('41')) {
        totals.dropped += 1;
      }
    });
    ws.on('error', () => undefined);
    ws.on('close', () => resolve());
  });
}

do await floodOnce();
while (reconnect && Date.now() < deadline);
process.stdout.write(`${JSON.stringify(totals)}\n`);
