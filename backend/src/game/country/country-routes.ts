import { changeCountryBodySchema } from '@tapgram/shared';
import { Router } from 'express';
import { parseInput, UnauthorizedError } from '../../core/errors';
import { playerFromRequest } from '../player-cookie';
import type { CountryService } from './country-service';

export const NO_PLAYER = 'No player plays in this browser';

/** PATCH /api/users/me/country: the signed player (its cookie) plays for another country. */
export function countryRouter(countries: CountryService): Router {
  const router = Router();
  router.patch('/users/me/country', async (req, res) => {
    const player = playerFromRequest(req);
    if (!player) throw new UnauthorizedError(NO_PLAYER);
    const { country } = parseInput(changeCountryBodySchema, req.body ?? {});
    res.json(await countries.change(player, country));
  });
  return router;
}
