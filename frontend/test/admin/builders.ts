import type {
  OperatorPlayer,
  PlayerAction,
  PlayerDay,
  PlayerDetail,
  PlayersPage,
} from '@tapgram/shared';

let sequence = 0;
const nextId = () => {
  sequence += 1;
  return `00000000-0000-4000-a000-${String(sequence).padStart(12, '0')}`;
};

export function makeOperatorPlayer(overrides: Partial<OperatorPlayer> = {}): OperatorPlayer {
  return {
    id: nextId(),
    username: 'tapper',
    country: 'GB',
    totalPoints: 1200,
    totalTaps: 1200,
    createdAt: '2026-11-01T12:00:00.000Z',
    frozen: false,
    refusedTaps: 0,
    suspicion: { score: 0, reasons: [] },
    ...overrides,
  };
}

export function playersPage(players: OperatorPlayer[], total = players.length): PlayersPage {
  return { players, total };
}

export function makePlayerDay(overrides: Partial<PlayerDay> = {}): PlayerDay {
  return {
    day: '2026-11-01',
    taps: 0,
    refused: 0,
    batches: 0,
    activeSeconds: 0,
    longestStreakSeconds: 0,
    sizeVariation: null,
    intervalVariation: null,
    ...overrides,
  };
}

export function makePlayerAction(overrides: Partial<PlayerAction> = {}): PlayerAction {
  return {
    id: nextId(),
    playerId: nextId(),
    player: 'tapper',
    action: 'freeze',
    moderator: 'boss',
    reason: 'scripted taps',
    at: '2026-11-02T12:00:00.000Z',
    ...overrides,
  };
}

export function makePlayerDetail(overrides: Partial<PlayerDetail> = {}): PlayerDetail {
  return {
    ...makeOperatorPlayer(),
    frozenAt: null,
    frozenReason: null,
    sessions: [],
    days: [],
    network: { players: 1, others: [] },
    actions: [],
    ...overrides,
  };
}
