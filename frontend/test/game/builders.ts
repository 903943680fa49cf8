import type {
  BatchNumbers,
  GameSession,
  GameUser,
  LeaderboardCountry,
  LeaderboardUser,
  CompactTapAck,
  TapTotals,
} from '@tapgram/shared';

let sequence = 0;
const nextId = () => {
  sequence += 1;
  return `00000000-0000-4000-9000-${String(sequence).padStart(12, '0')}`;
};

export function makeGameUser(overrides: Partial<GameUser> = {}): GameUser {
  return {
    id: nextId(),
    username: 'tapper',
    country: 'GB',
    totalPoints: 0,
    totalTaps: 0,
    ...overrides,
  };
}

export function makeGameSession(overrides: Partial<GameSession> = {}): GameSession {
  return { id: nextId(), userId: nextId(), sessionPoints: 0, sessionTaps: 0, ...overrides };
}

/** Numbers that say every batch of the session is durable, as a Postgres-only server's do. */
const ALL_DURABLE: BatchNumbers = { seq: 0, durableSeq: Number.MAX_SAFE_INTEGER };

/** The totals the game screen reads from an answer that leaves the player with these records. */
export function totalsOf(user: GameUser, session: GameSession): TapTotals {
  return {
    totalPoints: user.totalPoints,
    totalTaps: user.totalTaps,
    sessionPoints: session.sessionPoints,
    sessionTaps: session.sessionTaps,
  };
}

/** The answer to a counted batch, compact as the game screen's handshake asks for it. */
export function okAck(
  user: GameUser,
  session: GameSession,
  accepted: number,
  numbers: BatchNumbers = ALL_DURABLE,
): CompactTapAck {
  return { ok: true, accepted, ...totalsOf(user, session), ...numbers };
}

export function makeLeaderboardUser(overrides: Partial<LeaderboardUser> = {}): LeaderboardUser {
  const id = overrides.id ?? nextId();
  return { id, username: `player-${id.slice(-4)}`, totalPoints: 0, ...overrides };
}

export function makeLeaderboardCountry(country: string, totalPoints: number): LeaderboardCountry {
  return { country, totalPoints };
}

/** A promise the test settles later, to look at the state while an answer is awaited. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
