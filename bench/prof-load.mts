import autocannon from 'autocannon';
import { createPlayers } from '/work/main/bench/lib/game-load';
const url = 'http://localhost:3222';
const players = await createPlayers(url, 200, 'p' + Math.random().toString(36).slice(2, 6));
let next = 0;
const r = await autocannon({
  url: url + '/api/tap',
  method: 'POST',
  connections: 100,
  duration: 6,
  requests: [
    {
      setupRequest: (req) => {
        const p = players[next++ % players.length];
        return {
          ...req,
          headers: { 'content-type': 'application/json', cookie: p.cookie },
          body: JSON.stringify({ userId: p.userId, sessionId: p.sessionId, pointsPerTap: 1 }),
        };
      },
    },
  ],
});
console.log(r.requests.average, r.latency.p50, r.latency.p99, r.non2xx);
