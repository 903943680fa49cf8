/**
 * Lua scripts of the Redis game store. Each runs atomically inside Redis, so a tap batch checks
 * the rate and updates every counter it touches in one step.
 */

/**
 * KEYS: 1 user hash, 2 session hash, 3 rate bucket, 4 users zset, 5 countries zset,
 *       6 country taps hash, 7 dirty users, 8 dirty sessions, 9 dirty countries, 10 version, 11 ready,
 *       12 batch key (the batch id's, or an unused key when there is none)
 * ARGV: 1 userId, 2 sessionId, 3 count, 4 taps a second, 5 burst, 6 session idle ttl (s),
 *       7 '1' when a batch id is given, 8 seconds a batch id is remembered
 */
export const TAP_SCRIPT = `
if redis.call('EXISTS', KEYS[11]) == 0 then return {'not-ready'} end
local owner = redis.call('HGET', KEYS[2], 'userId')
if not owner then return {'no-session'} end
if owner ~= ARGV[1] then return {'not-owner'} end
local user = redis.call('HMGET', KEYS[1], 'username', 'country')
if not user[2] then return {'no-user'} end
if ARGV[7] == '1' then
  local seen = redis.call('GET', KEYS[12])
  if seen then
    local totals = redis.call('HMGET', KEYS[1], 'points', 'taps')
    local session = redis.call('HMGET', KEYS[2], 'points', 'taps')
    return {'ok', tonumber(seen), user[1], user[2], tonumber(totals[1]), tonumber(totals[2]), tonumber(session[1]), tonumber(session[2])}
  end
end

local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local rate = tonumber(ARGV[4])
local burst = tonumber(ARGV[5])
local bucket = redis.call('HMGET', KEYS[3], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or burst
local at = tonumber(bucket[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
local granted = math.min(tonumber(ARGV[3]), math.floor(tokens))
redis.call('HSET', KEYS[3], 'tokens', tostring(tokens - granted), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[3], math.ceil(burst * 1000 / rate) + 1000)
if granted == 0 then return {'rate-limited'} end
if ARGV[7] == '1' then redis.call('SET', KEYS[12], granted, 'EX', tonumber(ARGV[8])) end

local points = redis.call('HINCRBY', KEYS[1], 'points', granted)
local taps = redis.call('HINCRBY', KEYS[1], 'taps', granted)
local sessionPoints = redis.call('HINCRBY', KEYS[2], 'points', granted)
local sessionTaps = redis.call('HINCRBY', KEYS[2], 'taps', granted)
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[6]))
redis.call('ZADD', KEYS[4], points, ARGV[1])
redis.call('ZINCRBY', KEYS[5], granted, user[2])
redis.call('HINCRBY', KEYS[6], user[2], granted)
redis.call('SADD', KEYS[7], ARGV[1])
redis.call('SADD', KEYS[8], ARGV[2])
redis.call('SADD', KEYS[9], user[2])
redis.call('INCR', KEYS[10])
return {'ok', granted, user[1], user[2], points, taps, sessionPoints, sessionTaps}
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

/** KEYS: 1 version, 2 pushed version, 3 push lock. ARGV: 1 lock ms. 1 when this caller pushes. */
export const CLAIM_PUSH_SCRIPT = `
local version = redis.call('GET', KEYS[1]) or '0'
if version == (redis.call('GET', KEYS[2]) or '0') then return 0 end
if not redis.call('SET', KEYS[3], '1', 'NX', 'PX', tonumber(ARGV[1])) then return 0 end
redis.call('SET', KEYS[2], version)
return 1
`;
