import {
  idSchema,
  LEADERBOARD_CSV_COLUMNS,
  playerActionBodySchema,
  playersQuerySchema,
} from '@tapgram/shared';
import { stringify } from 'csv-stringify';
import { Router, type RequestHandler } from 'express';
import { adminOf } from '../../accounts';
import { parseInput } from '../../core/errors';
import type { OperatorsService } from './operators-service';

/** A spreadsheet runs a cell that starts like a formula: such a cell is written as text. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** The operators' calls, under /api/admin/game, every one behind the admin-only guard. */
export function operatorsRouter(service: OperatorsService, adminOnly: RequestHandler[]): Router {
  const router = Router();
  router.use('/admin/game', ...adminOnly);

  router.get('/admin/game/players', async (req, res) => {
    const { q, sort, limit, offset } = parseInput(playersQuerySchema, req.query);
    res.json(await service.players(q, sort, limit, offset));
  });

  router.get('/admin/game/players/:id', async (req, res) => {
    res.json(await service.detail(parseInput(idSchema, req.params.id)));
  });

  router.get('/admin/game/players/:id/referrals', async (req, res) => {
    res.json(await service.referralEvidence(parseInput(idSchema, req.params.id)));
  });

  for (const [action, frozen] of [
    ['freeze', true],
    ['unfreeze', false],
  ] as const) {
    router.post(`/admin/game/players/:id/${action}`, async (req, res) => {
      const id = parseInput(idSchema, req.params.id);
      const { reason } = parseInput(playerActionBodySchema, req.body);
      res.json(await service.setFrozen(adminOf(res), id, frozen, reason));
    });
  }

  router.get('/admin/game/actions', async (_req, res) => {
    res.json(await service.recentActions());
  });

  router.get('/admin/game/leaderboard.csv', async (_req, res) => {
    const day = new Date().toISOString().slice(0, 10);
    res.type('text/csv; charset=utf-8');
    res.attachment(`tapgram-leaderboard-${day}.csv`);
    res.setHeader('Cache-Control', 'no-store');
    const csv = stringify({
      header: true,
      columns: [...LEADERBOARD_CSV_COLUMNS],
      cast: { string: (value) => (FORMULA_START.test(value) ? `'${value}` : value) },
    });
    csv.pipe(res);
    try {
      for await (const rows of service.leaderboardRows()) {
        for (const row of rows) {
          // Waits while the client reads slower than the board is read.
          if (!csv.write(row)) await new Promise((resolve) => csv.once('drain', resolve));
        }
      }
      csv.end();
    } catch (error) {
      // The header is sent: the download ends cut short rather than with an error answer.
      csv.destroy(error as Error);
      res.destroy();
    }
  });

  return router;
}
