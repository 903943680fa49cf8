import type { TapOutcome } from './store';

/**
 * Lua scripts of the Redis game store. Each runs atomically inside Redis, so a tap batch checks
 * its number and the rate and updates every counter it touches in one step.
 */

/**
 * The suspicion signals of a player's day, kept in their hash beside the counters as one field,
 * `sig`: comma-separated numbers in this order (one field to read and write keeps the tap script's
 * extra work small). Day: days since 1970 (UTC); then taps, refused taps, batches, the running mean
 * and squared deviations of batch sizes (Welford), the count, mean and squared deviations of the
 * gaps between batches within a streak, active time, the longest streak, the streak's start and
 * the last batch (epoch ms; 0: none yet).
 */
export const SIGNAL_FIELDS = [
  'day',
  'taps',
  'refused',
  'batches',
  'sizeMean',
  'sizeM2',
  'gapN',
  'gapMean',
  'gapM2',
  'activeMs',
  'longestMs',
  'streakStartMs',
  'lastMs',
] as const;
export type SignalField = (typeof SIGNAL_FIELDS)[number];

/**
 * Counts the tap batches of many players in one step.
 * KEYS: 1 users zset, 2 countries zset, 3 country taps hash, 4 dirty users, 5 dirty sessions,
 *       6 dirty countries, 7 version, 8 ready; then for each batch its user hash and session hash.
 * ARGV: 1 taps a second, 2 burst, 3 record signals (1 or 0), 4 now (epoch ms, for the signals),
 *       5 the longest gap within a streak (ms); then for each batch userId, sessionId, count,
 *       seq (0: none), after (the highest number its client holds an answer for; 0: none).
 * The rate bucket of a player lives in their hash (tokens, at), with their frozen flag and the
 * day's signals (sig, see SIGNAL_FIELDS); a session's hash keeps the last counted batch number (seq) and
 * the last one the flusher wrote to Postgres (durable). A player refused by the rate cap is marked
 * dirty for their signals, without a board version. Answers one reply per batch.
 */
export const TAP_BATCH_SCRIPT = `
if redis.call('EXISTS', KEYS[8]) == 0 then return {{'not-ready'}} end
local time = redis.call('TIME')
local clock = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local signals = ARGV[3] == '1'
local now, pause = tonumber(ARGV[4]), tonumber(ARGV[5])
local day = math.floor(now / 86400000)
local fields = {'username', 'country', 'points', 'taps', 'tokens', 'at', 'frozen'}
if signals then fields[8] = 'sig' end
-- Positions in a signals list (see SIGNAL_FIELDS).
local DAY, TAPS, REFUSED, BATCHES, SIZE_MEAN, SIZE_M2, GAP_N, GAP_MEAN, GAP_M2 = 1, 2, 3, 4, 5, 6, 7, 8, 9
local ACTIVE, LONGEST, STREAK_START, LAST = 10, 11, 12, 13

-- The day's signals from the packed field: zeros on a new day.
local function readSignals(packed)
  local v = {}
  if packed then for n in string.gmatch(packed, '[^,]+') do v[#v + 1] = tonumber(n) end end
  if v[DAY] ~= day or #v ~= LAST then v = {day, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0} end
  return v
end
-- A counted batch: its size, and within a streak its gap, enter the running means.
local function countBatch(v, count)
  v[TAPS] = v[TAPS] + count
  v[BATCHES] = v[BATCHES] + 1
  local d = count - v[SIZE_MEAN]
  v[SIZE_MEAN] = v[SIZE_MEAN] + d / v[BATCHES]
  v[SIZE_M2] = v[SIZE_M2] + d * (count - v[SIZE_MEAN])
  if v[LAST] > 0 and now - v[LAST] <= pause then
    local g = math.max(0, now - v[LAST])
    v[ACTIVE] = v[ACTIVE] + g
    v[GAP_N] = v[GAP_N] + 1
    local e = g - v[GAP_MEAN]
    v[GAP_MEAN] = v[GAP_MEAN] + e / v[GAP_N]
    v[GAP_M2] = v[GAP_M2] + e * (g - v[GAP_MEAN])
    v[LONGEST] = math.max(v[LONGEST], now - v[STREAK_START])
  else
    v[STREAK_START] = now
  end
  v[LAST] = math.max(v[LAST], now)
end

local replies, dirtyUsers, dirtySessions, countryTaps, refusedUsers = {}, {}, {}, {}, {}
for i = 1, (#KEYS - 8) / 2 do
  local userKey, sessionKey = KEYS[7 + 2 * i], KEYS[8 + 2 * i]
  local userId, sessionId = ARGV[5 * i + 1], ARGV[5 * i + 2]
  local count, seq, after = tonumber(ARGV[5 * i + 3]), tonumber(ARGV[5 * i + 4]), tonumber(ARGV[5 * i + 5])
  local s = redis.call('HMGET', sessionKey, 'userId', 'seq', 'points', 'taps', 'durable')
  local u = s[1] == userId and redis.call('HMGET', userKey, unpack(fields))
  local last, durable = tonumber(s[2]) or 0, tonumber(s[5]) or 0
  if not s[1] then replies[i] = {'no-session'}
  elseif not u then replies[i] = {'not-owner'}
  elseif not u[2] then replies[i] = {'no-user'}
  elseif u[7] == '1' then replies[i] = {'frozen'}
  elseif seq > 0 and after > last then
    -- The client holds answers to batches this Redis no longer counts (it lost its data).
    replies[i] = {'lost', last, durable}
  elseif seq > 0 and seq <= last then
    -- A re-sent batch: counted already, answered with the current totals.
    replies[i] = {'ok', count, u[1], u[2], tonumber(u[3]), tonumber(u[4]), tonumber(s[3]), tonumber(s[4]), last, durable}
  else
    local at = tonumber(u[6]) or clock
    local tokens = math.min(burst, (tonumber(u[5]) or burst) + math.max(0, clock - at) * rate / 1000)
    if tokens < count then
      if signals then
        local v = readSignals(u[8])
        v[REFUSED] = v[REFUSED] + count
        redis.call('HSET', userKey, 'tokens', tostring(tokens), 'at', tostring(clock), 'sig', table.concat(v, ','))
        refusedUsers[#refusedUsers + 1] = userId
      else
        redis.call('HSET', userKey, 'tokens', tostring(tokens), 'at', tostring(clock))
      end
      replies[i] = {'rate-limited'}
    else
      local points, taps = tonumber(u[3]) + count, tonumber(u[4]) + count
      local sessionPoints, sessionTaps = tonumber(s[3]) + count, tonumber(s[4]) + count
      if signals then
        local v = readSignals(u[8])
        countBatch(v, count)
        redis.call('HSET', userKey, 'points', points, 'taps', taps, 'tokens', tostring(tokens - count), 'at', tostring(clock), 'sig', table.concat(v, ','))
      else
        redis.call('HSET', userKey, 'points', points, 'taps', taps, 'tokens', tostring(tokens - count), 'at', tostring(clock))
      end
      if seq > 0 then
        redis.call('HSET', sessionKey, 'points', sessionPoints, 'taps', sessionTaps, 'seq', seq)
        last = seq
      else
        redis.call('HSET', sessionKey, 'points', sessionPoints, 'taps', sessionTaps)
      end
      redis.call('ZADD', KEYS[1], points, userId)
      countryTaps[u[2]] = (countryTaps[u[2]] or 0) + count
      dirtyUsers[#dirtyUsers + 1] = userId
      dirtySessions[#dirtySessions + 1] = sessionId
      replies[i] = {'ok', count, u[1], u[2], points, taps, sessionPoints, sessionTaps, last, durable}
    end
  end
end
if #refusedUsers > 0 then redis.call('SADD', KEYS[4], unpack(refusedUsers)) end
if #dirtyUsers > 0 then
  local countries = {}
  for country, taps in pairs(countryTaps) do
    redis.call('ZINCRBY', KEYS[2], taps, country)
    redis.call('HINCRBY', KEYS[3], country, taps)
    countries[#countries + 1] = country
  end
  redis.call('SADD', KEYS[4], unpack(dirtyUsers))
  redis.call('SADD', KEYS[5], unpack(dirtySessions))
  redis.call('SADD', KEYS[6], unpack(countries))
  redis.call('INCR', KEYS[7])
end
return replies
`;

/**
 * Freezes a player (1) or unfreezes them (0): off the users board and their points out of their
 * country's shown total, or back. KEYS: 1 users zset, 2 frozen points per country hash, 3 the
 * player's hash, 4 version. ARGV: 1 player id, 2 frozen. Answers 0 for a player Redis does not
 * hold, 1 otherwise (already in that state: nothing changes).
 */
export const FREEZE_SCRIPT = `
local u = redis.call('HMGET', KEYS[3], 'country', 'points', 'frozen')
if not u[1] then return 0 end
local frozen = u[3] == '1'
if ARGV[2] == '1' and not frozen then
  redis.call('HSET', KEYS[3], 'frozen', '1')
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HINCRBY', KEYS[2], u[1], tonumber(u[2]))
elseif ARGV[2] == '0' and frozen then
  redis.call('HDEL', KEYS[3], 'frozen')
  redis.call('ZADD', KEYS[1], tonumber(u[2]), ARGV[1])
  redis.call('HINCRBY', KEYS[2], u[1], -tonumber(u[2]))
else
  return 1
end
redis.call('INCR', KEYS[4])
return 1
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

export type TapReply = (string | number)[];

/** The outcome of an 'ok' reply of TAP_BATCH_SCRIPT. */
export function tapAccepted(reply: TapReply, userId: string, sessionId: string): TapOutcome {
  const [, accepted, username, country, points, taps, sessionPoints, sessionTaps, seq, durable] =
    reply;
  return {
    kind: 'ok',
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
