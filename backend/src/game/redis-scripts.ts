import type { TapOutcome } from './store';

/**
 * Lua scripts of the Redis game store. Each runs atomically inside Redis, so a tap batch checks
 * its number and the rate and updates every counter it touches in one step.
 */

/**
 * KEYS: 1 user hash, 2 session hash, 3 rate bucket, 4 users zset, 5 countries zset,
 *       6 country taps hash, 7 dirty users, 8 dirty sessions, 9 dirty countries, 10 version, 11 ready
 * ARGV: 1 userId, 2 sessionId, 3 count, 4 taps a second, 5 burst, 6 session idle ttl (s),
 *       7 the batch's number in its session (0 when it has none)
 */
export const TAP_SCRIPT = `
if redis.call('EXISTS', KEYS[11]) == 0 then return {'not-ready'} end
local owner = redis.call('HGET', KEYS[2], 'userId')
if not owner then return {'no-session'} end
if owner ~= ARGV[1] then return {'not-owner'} end
local user = redis.call('HMGET', KEYS[1], 'username', 'country', 'points', 'taps')
if not user[2] then return {'no-user'} end
local count = tonumber(ARGV[3])
local seq = tonumber(ARGV[7])
if seq > 0 and seq <= (tonumber(redis.call('HGET', KEYS[2], 'seq')) or 0) then
  local session = redis.call('HMGET', KEYS[2], 'points', 'taps')
  return {'ok', count, user[1], user[2], tonumber(user[3]), tonumber(user[4]), tonumber(session[1]), tonumber(session[2])}
end

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local rate = tonumber(ARGV[4])
local burst = tonumber(ARGV[5])
local bucket = redis.call('HMGET', KEYS[3], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local refused = tokens < count
if not refused then tokens = tokens - count end
redis.call('HSET', KEYS[3], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[3], math.ceil(burst * 1000 / rate) + 1000)
if refused then return {'rate-limited'} end
if seq > 0 then redis.call('HSET', KEYS[2], 'seq', ARGV[7]) end

local points = redis.call('HINCRBY', KEYS[1], 'points', count)
local taps = redis.call('HINCRBY', KEYS[1], 'taps', count)
local sessionPoints = redis.call('HINCRBY', KEYS[2], 'points', count)
local sessionTaps = redis.call('HINCRBY', KEYS[2], 'taps', count)
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[6]))
redis.call('ZADD', KEYS[4], points, ARGV[1])
redis.call('ZINCRBY', KEYS[5], count, user[2])
redis.call('HINCRBY', KEYS[6], user[2], count)
redis.call('SADD', KEYS[7], ARGV[1])
redis.call('SADD', KEYS[8], ARGV[2])
redis.call('SADD', KEYS[9], user[2])
redis.call('INCR', KEYS[10])
return {'ok', count, user[1], user[2], points, taps, sessionPoints, sessionTaps}
`;

/** KEYS: 1 users zset. ARGV: 1 limit, 2 user hash key prefix. Answers id, username, points, ... */
export const TOP_USERS_SCRIPT = `
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
local out = {}
for i = 1, #ids, 2 do
  out[#out + 1] = ids[i]
  out[#out + 1] = redis.call('HGET', ARGV[2] .. ids[i], 'username') or ''
  out[#out + 1] = ids[i + 1]
end
return out
`;

export type TapReply = [string, number?, string?, string?, number?, number?, number?, number?];

/** The outcome of an 'ok' reply of TAP_SCRIPT. */
export function tapAccepted(reply: TapReply, userId: string, sessionId: string): TapOutcome {
  const [, accepted, username, country, points, taps, sessionPoints, sessionTaps] = reply;
  return {
    kind: 'ok',
    accepted: Number(accepted),
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
