import {
  idSchema,
  seasonBoardQuerySchema,
  seasonParamSchema,
  seasonsQuerySchema,
} from '@tapgram/shared';
import { Router } from 'express';
import { parseInput } from '../../core/errors';
import type { SeasonsService } from './seasons-service';

export function seasonsRouter(seasons: SeasonsService): Router {
  const router = Router();

  router.get('/seasons/current', async (_req, res) => {
    res.json(await seasons.current());
  });

  router.get('/seasons', async (req, res) => {
    const { limit, before } = parseInput(seasonsQuerySchema, req.query);
    res.json(await seasons.archived(limit, before));
  });

  router.get('/seasons/:season/users', async (req, res) => {
    const season = parseInput(seasonParamSchema, req.params.season);
    const { limit } = parseInput(seasonBoardQuerySchema, req.query);
    res.json(await seasons.users(season, limit));
  });

  router.get('/seasons/:season/countries', async (req, res) => {
    res.json(await seasons.countries(parseInput(seasonParamSchema, req.params.season)));
  });

  router.get('/users/:id/seasons', async (req, res) => {
    res.json(await seasons.playerSeasons(parseInput(idSchema, req.params.id)));
  });

  return router;
}
