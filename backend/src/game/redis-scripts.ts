import { TAP_KEY_TTL_SECONDS, type TapOutcome } from './store';

/**
 * Lua scripts of the Redis game store. Each runs atomically inside Redis, so a tap batch checks
 * its number and the rate and updates every counter it touches in one step.
 */

/**
 * Counts the tap batches of many players in one step.
 * KEYS: 1 users zset, 2 countries zset, 3 country taps hash, 4 dirty users, 5 dirty sessions,
 *       6 dirty countries, 7 version, 8 ready, 9 seasons set; then for each batch its user hash,
 *       its session hash and the key that remembers its tap key ('' for a batch without one).
 * ARGV: 1 taps a second, 2 burst, 3 season 1's start (epoch ms), 4 a season's length (ms), 5 the
 *       season keys' prefix; then for each batch userId, sessionId, count, seq (0: none), after
 *       (the highest number its client holds an answer for; 0: none).
 * The rate bucket of a player lives in their hash (tokens, at), with their frozen flag; a
 * session's hash keeps the last counted batch number (seq) and the last one the flusher wrote to
 * Postgres (durable). A tap key counted is kept for TAP_KEY_TTL_SECONDS. The bucket is the
 * shared TapBucket's rule. Counted taps also go to the boards of the season running by Redis's
 * clock (the one clock of every node), so a tap belongs to exactly one season, and to the
 * player's count of the UTC day by that clock (day, dayTaps; prevDay, prevDayTaps keep the day
 * they tapped before until the flusher has surely written it). Taps without a batch number (POST
 * /api/tap) are also counted in the player's `unbatched`: no client keeps them to send again, so
 * a flush that Postgres refuses hands them on (see STRANDED_SCRIPT). Answers one reply
 * per batch; a refusal by the rate says in how many milliseconds the bucket holds the batch (-1:
 * never, it is larger than the burst).
 */
export const TAP_BATCH_SCRIPT = `
if redis.call('EXISTS', KEYS[8]) == 0 then return {{'not-ready'}} end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local season = math.floor((now - tonumber(ARGV[3])) / tonumber(ARGV[4])) + 1
local today = math.floor(now / 86400000)
local seasonUsers = ARGV[5] .. season .. ':users'
local replies, dirtyUsers, dirtySessions, countryTaps = {}, {}, {}, {}
for i = 1, (#KEYS - 9) / 3 do
  local userKey, sessionKey, tapKey = KEYS[7 + 3 * i], KEYS[8 + 3 * i], KEYS[9 + 3 * i]
  local userId, sessionId = ARGV[5 * i + 1], ARGV[5 * i + 2]
  local count, seq, after = tonumber(ARGV[5 * i + 3]), tonumber(ARGV[5 * i + 4]), tonumber(ARGV[5 * i + 5])
  local s = redis.call('HMGET', sessionKey, 'userId', 'seq', 'points', 'taps', 'durable')
  local u = s[1] == userId and redis.call('HMGET', userKey, 'username', 'country', 'points', 'taps', 'tokens', 'at', 'frozen', 'day', 'dayTaps')
  local last, durable = tonumber(s[2]) or 0, tonumber(s[5]) or 0
  if not s[1] then replies[i] = {'no-session'}
  elseif not u then replies[i] = {'not-owner'}
  elseif not u[2] then replies[i] = {'no-user'}
  elseif u[7] == '1' then replies[i] = {'frozen'}
  elseif tapKey ~= '' and redis.call('EXISTS', tapKey) == 1 then
    -- A tap sent again with its key: counted already, answered with the current totals.
    replies[i] = {'again', count, u[1], u[2], tonumber(u[3]), tonumber(u[4]), tonumber(s[3]), tonumber(s[4]), last, durable}
  elseif seq > 0 and after > last then
    -- The client holds answers to batches this Redis no longer counts (it lost its data).
    replies[i] = {'lost', last, durable}
  elseif seq > 0 and seq <= last then
    -- A re-sent batch: counted already, answered with the current totals.
    replies[i] = {'again', count, u[1], u[2], tonumber(u[3]), tonumber(u[4]), tonumber(s[3]), tonumber(s[4]), last, durable}
  else
    local at = tonumber(u[6]) or now
    local tokens = math.min(burst, (tonumber(u[5]) or burst) + math.max(0, now - at) * rate / 1000)
    if tokens < count then
      redis.call('HSET', userKey, 'tokens', tostring(tokens), 'at', tostring(now))
      local wait = -1
      if count <= burst then wait = math.ceil((count - tokens) * 1000 / rate) end
      replies[i] = {'rate-limited', wait}
    else
      local points, taps = tonumber(u[3]) + count, tonumber(u[4]) + count
      local sessionPoints, sessionTaps = tonumber(s[3]) + count, tonumber(s[4]) + count
      -- The player's taps today (UTC), and on the day they tapped before, for the streak.
      local dayTaps = count
      if tonumber(u[8]) == today then dayTaps = tonumber(u[9]) + count
      elseif u[8] then redis.call('HSET', userKey, 'prevDay', u[8], 'prevDayTaps', u[9]) end
      redis.call('HSET', userKey, 'points', points, 'taps', taps, 'tokens', tostring(tokens - count), 'at', tostring(now), 'day', today, 'dayTaps', dayTaps)
      if seq > 0 then
        redis.call('HSET', sessionKey, 'points', sessionPoints, 'taps', sessionTaps, 'seq', seq)
        last = seq
      else
        redis.call('HSET', sessionKey, 'points', sessionPoints, 'taps', sessionTaps)
        redis.call('HINCRBY', userKey, 'unbatched', count)
      end
      if tapKey ~= '' then redis.call('SET', tapKey, '1', 'EX', ${TAP_KEY_TTL_SECONDS}) end
      redis.call('ZADD', KEYS[1], points, userId)
      redis.call('ZINCRBY', seasonUsers, count, userId)
      countryTaps[u[2]] = (countryTaps[u[2]] or 0) + count
      dirtyUsers[#dirtyUsers + 1] = userId
      dirtySessions[#dirtySessions + 1] = sessionId
      replies[i] = {'ok', count, u[1], u[2], points, taps, sessionPoints, sessionTaps, last, durable}
    end
  end
end
if #dirtyUsers > 0 then
  local countries = {}
  local seasonCountries = ARGV[5] .. season .. ':countries'
  for country, taps in pairs(countryTaps) do
    redis.call('ZINCRBY', KEYS[2], taps, country)
    redis.call('HINCRBY', KEYS[3], country, taps)
    redis.call('ZINCRBY', seasonCountries, taps, country)
    countries[#countries + 1] = country
  end
  redis.call('SADD', KEYS[4], unpack(dirtyUsers))
  redis.call('SADD', KEYS[5], unpack(dirtySessions))
  redis.call('SADD', KEYS[6], unpack(countries))
  redis.call('SADD', KEYS[9], season)
  redis.call('INCR', KEYS[7])
end
return replies
`;

/** Where a script's KEYS and ARGV hold what `addedBesideTaps` touches (their 1-based places). */
interface BesideTaps {
  keys: {
    countries: number;
    seasons: number;
    dirtyUsers: number;
    dirtyCountries: number;
    version: number;
  };
  argv: { player: number; seasonStart: number; seasonLength: number; seasonPrefix: number };
}

/**
 * Lua adding `amount` (a Lua expression) of points to a player's country (`country`, one too) and
 * to both boards of the season running by Redis's clock, then marking what changed for the
 * flusher and the pushes: what a bonus and stranded taps do beside the player's own hash.
 */
function addedBesideTaps({ keys, argv }: BesideTaps, amount: string, country: string): string {
  return `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local season = math.floor((now - tonumber(ARGV[${argv.seasonStart}])) / tonumber(ARGV[${argv.seasonLength}])) + 1
redis.call('ZINCRBY', KEYS[${keys.countries}], ${amount}, ${country})
redis.call('ZINCRBY', ARGV[${argv.seasonPrefix}] .. season .. ':users', ${amount}, ARGV[${argv.player}])
redis.call('ZINCRBY', ARGV[${argv.seasonPrefix}] .. season .. ':countries', ${amount}, ${country})
redis.call('SADD', KEYS[${keys.seasons}], season)
redis.call('SADD', KEYS[${keys.dirtyUsers}], ARGV[${argv.player}])
redis.call('SADD', KEYS[${keys.dirtyCountries}], ${country})
redis.call('INCR', KEYS[${keys.version}])`;
}

/**
 * Adds a bonus that Postgres recorded (a check-in's claim row, a referral's bonus row) to a
 * player's points and every board, once: the player's hash keeps a marker of the bonuses it holds
 * (the streak's `bonusDay`, the last day claimed; a referral's `ref:<invitation>`), so a bonus
 * applied again (a retry, another node) adds nothing. Points only: the taps stay as they are.
 * KEYS: 1 users zset, 2 countries zset, 3 dirty users, 4 dirty countries, 5 version, 6 ready,
 * 7 seasons set, 8 the player's hash. ARGV: 1 player id, 2 the marker's value (a bonus whose
 * marker holds this or more is held already), 3 points, 4 season 1's start, 5 a season's length,
 * 6 the season keys' prefix, 7 the marker's field.
 * Answers {'ok', points}, {'again', points}, {'frozen'}, {'no-user'} or {'not-ready'}.
 */
export const BONUS_SCRIPT = `
if redis.call('EXISTS', KEYS[6]) == 0 then return {'not-ready'} end
local u = redis.call('HMGET', KEYS[8], 'country', 'points', 'frozen', ARGV[7])
if not u[1] then return {'no-user'} end
local day, bonus = tonumber(ARGV[2]), tonumber(ARGV[3])
if (tonumber(u[4]) or -1) >= day then return {'again', tonumber(u[2])} end
if u[3] == '1' then return {'frozen'} end
local points = tonumber(u[2]) + bonus
redis.call('HSET', KEYS[8], 'points', points, ARGV[7], day)
redis.call('ZADD', KEYS[1], points, ARGV[1])
${addedBesideTaps(
  {
    keys: { countries: 2, seasons: 7, dirtyUsers: 3, dirtyCountries: 4, version: 5 },
    argv: { player: 1, seasonStart: 4, seasonLength: 5, seasonPrefix: 6 },
  },
  'bonus',
  'u[1]',
)}
return {'ok', points}
`;

/**
 * Adds taps that another Redis acknowledged and could not write to Postgres (its generation was
 * no longer Postgres's: see RedisFlusher), once: the player's hash keeps, under the marker
 * `stranded:<that generation>`, how far that Redis's count of the player's unbatched taps has been
 * added here, so an event delivered again, or an older one after a newer, adds nothing. Only to a
 * Redis of the generation Postgres follows (the caller holds it, read under a lock, in ARGV 1).
 * A tap is a point. The taps go to the day they were counted on when the player's hash still keeps
 * it, and to the season running now.
 * KEYS: 1 users zset, 2 countries zset, 3 country taps hash, 4 dirty users, 5 dirty countries,
 * 6 version, 7 ready, 8 seasons set, 9 generation, 10 frozen points per country, 11 the player's
 * hash. ARGV: 1 Postgres's generation, 2 player id, 3 the marker's field, 4 the count already
 * written from, 5 the count reached, 6 the day, 7 season 1's start, 8 a season's length, 9 the
 * season keys' prefix.
 * Answers {'ok', taps added}, {'again'}, {'no-user'}, {'not-ready'} or {'behind'}.
 */
export const STRANDED_SCRIPT = `
if redis.call('EXISTS', KEYS[7]) == 0 then return {'not-ready'} end
if redis.call('GET', KEYS[9]) ~= ARGV[1] then return {'behind'} end
local u = redis.call('HMGET', KEYS[11], 'country', 'points', 'taps', 'frozen', ARGV[3], 'day', 'dayTaps', 'prevDay', 'prevDayTaps')
if not u[1] then return {'no-user'} end
local reached = tonumber(ARGV[5])
local add = reached - math.max(tonumber(ARGV[4]), tonumber(u[5]) or 0)
if add <= 0 then return {'again'} end
local points = tonumber(u[2]) + add
redis.call('HSET', KEYS[11], 'points', points, 'taps', tonumber(u[3]) + add, ARGV[3], reached)
local day = tonumber(ARGV[6])
if tonumber(u[6]) == day then redis.call('HSET', KEYS[11], 'dayTaps', tonumber(u[7]) + add)
elseif tonumber(u[8]) == day then redis.call('HSET', KEYS[11], 'prevDayTaps', tonumber(u[9]) + add)
elseif (tonumber(u[6]) or -1) < day then
  if u[6] then redis.call('HSET', KEYS[11], 'prevDay', u[6], 'prevDayTaps', u[7]) end
  redis.call('HSET', KEYS[11], 'day', day, 'dayTaps', add)
end
if u[4] == '1' then redis.call('HINCRBY', KEYS[10], u[1], add)
else redis.call('ZADD', KEYS[1], points, ARGV[2]) end
redis.call('HINCRBY', KEYS[3], u[1], add)
${addedBesideTaps(
  {
    keys: { countries: 2, seasons: 8, dirtyUsers: 4, dirtyCountries: 5, version: 6 },
    argv: { player: 2, seasonStart: 7, seasonLength: 8, seasonPrefix: 9 },
  },
  'add',
  'u[1]',
)}
return {'ok', add}
`;

/**
 * Freezes a player (1) or unfreezes them (0): off the users board and their points out of their
 * country's shown total, or back; the season boards leave out the members of the frozen set.
 * KEYS: 1 users zset, 2 frozen points per country hash, 3 the player's hash, 4 version, 5 frozen
 * set. ARGV: 1 player id, 2 frozen. Answers 0 for a player Redis does not
 * hold, 1 when they already were so (nothing changes), 2 when it changed them.
 * Redis does not undo the writes of a script that fails: every command here takes values it
 * cannot refuse (HINCRBY refuses "-0", which is what negating 0 gives in Lua), so none fails once
 * the reads have passed, and the flag that says whether the change is done is written last.
 */
export const FREEZE_SCRIPT = `
local u = redis.call('HMGET', KEYS[3], 'country', 'points', 'frozen')
if not u[1] then return 0 end
local frozen = u[3] == '1'
local points = tonumber(u[2]) or 0
if ARGV[2] == '1' and not frozen then
  redis.call('ZREM', KEYS[1], ARGV[1])
  if points ~= 0 then redis.call('HINCRBY', KEYS[2], u[1], points) end
  redis.call('SADD', KEYS[5], ARGV[1])
  redis.call('HSET', KEYS[3], 'frozen', '1')
elseif ARGV[2] == '0' and frozen then
  redis.call('ZADD', KEYS[1], points, ARGV[1])
  if points ~= 0 then redis.call('HINCRBY', KEYS[2], u[1], -points) end
  redis.call('SREM', KEYS[5], ARGV[1])
  redis.call('HDEL', KEYS[3], 'frozen')
else
  -- Already so: the frozen set agrees too (a Redis kept from before the set existed).
  if frozen then redis.call('SADD', KEYS[5], ARGV[1]) else redis.call('SREM', KEYS[5], ARGV[1]) end
  return 1
end
redis.call('INCR', KEYS[4])
return 2
`;

/**
 * Moves a player to another country with all their points and taps as Redis counts them: the
 * all-time countries board and its taps, the frozen points a frozen player's country keeps off
 * the board, and the country boards of every season Redis holds (the running one; archived ones
 * are Postgres's rows); then the player plays for the new country. Taps counted before it went to
 * the old country, every later one goes to the new. Both countries are marked for the flusher,
 * which writes their totals with the change's number (see GameRepository.writeTotals).
 * KEYS: 1 ready, 2 the player's hash, 3 countries zset, 4 country taps hash, 5 frozen points per
 * country hash, 6 seasons set, 7 dirty countries, 8 version, 9 the last change's number.
 * ARGV: 1 player id, 2 the new country, 3 the change's number, 4 the season keys' prefix.
 * Answers 'moved', 'same' (the player plays for it already), 'no-user' or 'not-ready'.
 * Redis does not undo the writes of a script that fails: no command here refuses its values once
 * the reads have passed (ZINCRBY and HINCRBY get no "-0"), and the country is written last.
 */
export const COUNTRY_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'not-ready' end
local u = redis.call('HMGET', KEYS[2], 'country', 'points', 'taps', 'frozen')
if not u[1] then return 'no-user' end
if tonumber(redis.call('GET', KEYS[9]) or '0') < tonumber(ARGV[3]) then
  redis.call('SET', KEYS[9], ARGV[3])
end
local from, to = u[1], ARGV[2]
if from == to then return 'same' end
local points, taps = tonumber(u[2]) or 0, tonumber(u[3]) or 0
if points ~= 0 then
  redis.call('ZINCRBY', KEYS[3], -points, from)
  redis.call('ZINCRBY', KEYS[3], points, to)
  if u[4] == '1' then
    redis.call('HINCRBY', KEYS[5], from, -points)
    redis.call('HINCRBY', KEYS[5], to, points)
  end
end
if taps ~= 0 then
  redis.call('HINCRBY', KEYS[4], from, -taps)
  redis.call('HINCRBY', KEYS[4], to, taps)
end
for _, season in ipairs(redis.call('SMEMBERS', KEYS[6])) do
  local theirs = tonumber(redis.call('ZSCORE', ARGV[4] .. season .. ':users', ARGV[1]) or '0')
  if theirs ~= 0 then
    redis.call('ZINCRBY', ARGV[4] .. season .. ':countries', -theirs, from)
    redis.call('ZINCRBY', ARGV[4] .. season .. ':countries', theirs, to)
  end
end
redis.call('SADD', KEYS[7], from, to)
redis.call('INCR', KEYS[8])
redis.call('HSET', KEYS[2], 'country', to)
return 'moved'
`;

/**
 * A stretch of the users board. KEYS: 1 users zset. ARGV: 1 start (0: the top), 2 count, 3 user
 * hash key prefix. Answers id, username, points, ...
 */
export const BOARD_SCRIPT = `
local start = tonumber(ARGV[1])
local ids = redis.call('ZREVRANGE', KEYS[1], start, start + tonumber(ARGV[2]) - 1, 'WITHSCORES')
local out = {}
for i = 1, #ids, 2 do
  out[#out + 1] = ids[i]
  out[#out + 1] = redis.call('HGET', ARGV[3] .. ids[i], 'username') or ''
  out[#out + 1] = ids[i + 1]
end
return out
`;

/**
 * The player and up to `span` players either side of them, in one atomic read.
 * KEYS: 1 users zset. ARGV: 1 user id, 2 span, 3 user hash key prefix.
 * Answers nil for a player not on the board; otherwise the board position of the first entry, the
 * players with strictly more points than it, then id, username, points of each entry.
 */
export const AROUND_USER_SCRIPT = `
local position = redis.call('ZREVRANK', KEYS[1], ARGV[1])
if not position then return false end
local span = tonumber(ARGV[2])
local start = math.max(0, position - span)
local ids = redis.call('ZREVRANGE', KEYS[1], start, position + span, 'WITHSCORES')
local out = {start, redis.call('ZCOUNT', KEYS[1], '(' .. ids[2], '+inf')}
for i = 1, #ids, 2 do
  out[#out + 1] = ids[i]
  out[#out + 1] = redis.call('HGET', ARGV[3] .. ids[i], 'username') or ''
  out[#out + 1] = ids[i + 1]
end
return out
`;

/**
 * The top of a season's players board, frozen players left out. KEYS: 1 the season's users zset,
 * 2 frozen set. ARGV: 1 count, 2 user hash key prefix. Answers id, username, points, ...
 */
export const SEASON_TOP_SCRIPT = `
local count = tonumber(ARGV[1])
local ids = redis.call('ZREVRANGE', KEYS[1], 0, count + redis.call('SCARD', KEYS[2]) - 1, 'WITHSCORES')
local out = {}
for i = 1, #ids, 2 do
  if #out >= 3 * count then break end
  if redis.call('SISMEMBER', KEYS[2], ids[i]) == 0 then
    out[#out + 1] = ids[i]
    out[#out + 1] = redis.call('HGET', ARGV[2] .. ids[i], 'username') or ''
    out[#out + 1] = ids[i + 1]
  end
end
return out
`;

/**
 * A player's rank and points in a season: 1 + the players (frozen ones left out) with strictly
 * more points. KEYS: 1 the season's users zset, 2 frozen set. ARGV: 1 player id. Answers
 * {rank, points}, or {0, points} for a frozen player (off the board).
 */
export const SEASON_RANK_SCRIPT = `
local points = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return {0, points} end
local above = redis.call('ZCOUNT', KEYS[1], '(' .. points, '+inf')
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local theirs = tonumber(redis.call('ZSCORE', KEYS[1], id) or '0')
  if theirs > points then above = above - 1 end
end
return {above + 1, points}
`;

/**
 * A season's countries board without the points of frozen players (few: read whole). KEYS: 1 the
 * season's countries zset, 2 its users zset, 3 frozen set. ARGV: 1 user hash key prefix.
 * Answers country, points, ... in no particular order.
 */
export const SEASON_COUNTRIES_SCRIPT = `
local points = {}
local flat = redis.call('ZRANGEBYSCORE', KEYS[1], '(0', '+inf', 'WITHSCORES')
for i = 1, #flat, 2 do points[flat[i]] = tonumber(flat[i + 1]) end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
  local theirs = tonumber(redis.call('ZSCORE', KEYS[2], id) or '0')
  local country = redis.call('HGET', ARGV[1] .. id, 'country')
  if theirs > 0 and country and points[country] then points[country] = points[country] - theirs end
end
local out = {}
for country, total in pairs(points) do
  if total > 0 then
    out[#out + 1] = country
    out[#out + 1] = total
  end
end
return out
`;

export type TapReply = (string | number)[];

/** The outcome of an 'ok' or 'again' (a re-sent batch, not counted again) reply of TAP_BATCH_SCRIPT. */
export function tapAccepted(reply: TapReply, userId: string, sessionId: string): TapOutcome {
  const [
    status,
    accepted,
    username,
    country,
    points,
    taps,
    sessionPoints,
    sessionTaps,
    seq,
    durable,
  ] = reply;
  return {
    kind: 'ok',
    counted: status === 'ok',
    accepted: Number(accepted),
    seq: Number(seq),
    durableSeq: Number(durable),
    user: {
      id: userId,
      username: String(username),
      country: String(country),
      totalPoints: Number(points),
      totalTaps: Number(taps),
    },
    session: {
      id: sessionId,
      userId,
      sessionPoints: Number(sessionPoints),
      sessionTaps: Number(sessionTaps),
    },
  };
}

/** The outcome of a 'lost' reply of TAP_BATCH_SCRIPT. */
export function tapLost(reply: TapReply): TapOutcome {
  return { kind: 'lost', seq: Number(reply[1]), durableSeq: Number(reply[2]) };
}
