/**
 * The Redis keys of the game, all under `<REDIS_PREFIX>:game` so that deployments can share a
 * Redis.
 */
export function gameKeys(prefix: string) {
  const base = `${prefix}:game`;
  return {
    user: (id: string) => `${base}:user:${id}`,
    session: (id: string) => `${base}:session:${id}`,
    /** A tap key a session counted (POST /api/tap's Idempotency-Key), kept for a while. */
    tapKey: (sessionId: string, key: string) => `${base}:tap-key:${sessionId}:${key}`,
    users: `${base}:lb:users`,
    countries: `${base}:lb:countries`,
    /** The points of frozen players per country, taken off the countries board when it is read. */
    frozenCountries: `${base}:lb:frozen-countries`,
    /** The frozen players (few): a season's boards keep their points and leave them out on reads. */
    frozen: `${base}:frozen`,
    /** A season's players and countries by their points in it (see `seasonKeys`). */
    seasonPrefix: `${base}:season:`,
    seasonUsers: (season: number) => `${base}:season:${season}:users`,
    seasonCountries: (season: number) => `${base}:season:${season}:countries`,
    /** The seasons whose boards Redis holds (the running one, and any not yet archived). */
    seasons: `${base}:seasons`,
    countryTaps: `${base}:country-taps`,
    /** The number of the last country change Redis made (Postgres hands them out). */
    countryMoves: `${base}:country-moves`,
    dirtyUsers: `${base}:dirty:users`,
    dirtySessions: `${base}:dirty:sessions`,
    dirtyCountries: `${base}:dirty:countries`,
    /** Ids a flusher has taken and not yet written, per flusher, so a crash loses none. */
    flushing: (token: string) => ({
      users: `${base}:flushing:${token}:users`,
      sessions: `${base}:flushing:${token}:sessions`,
      countries: `${base}:flushing:${token}:countries`,
    }),
    /** Tokens of the flushers that may hold taken ids. */
    flushers: `${base}:flushers`,
    version: `${base}:version`,
    pushed: `${base}:pushed`,
    pushLock: `${base}:push-lock`,
    ready: `${base}:ready`,
    /** The generation of these counters, as Postgres knows it (see the rebuild). */
    generation: `${base}:generation`,
    rebuildLock: `${base}:rebuild-lock`,
    /** Every key of the game (a rebuild clears the counters an older generation left). */
    everyKey: `${base}:*`,
  };
}

export type GameKeys = ReturnType<typeof gameKeys>;
