import { TAP_BATCH_WINDOW_MS, type GameHandshake } from '@tapgram/shared';

/** How the simulated players speak the game channel. */
export interface LoadProtocol {
  name: 'baseline' | 'compact';
  /** What the table says about it. */
  label: string;
  /** A player sends its taps of each window as one batch. */
  windowMs: number;
  /** The handshake's options (socket.io's `auth`). */
  auth?: GameHandshake;
}

export const PROTOCOLS: Record<LoadProtocol['name'], LoadProtocol> = {
  // The game screen before the compact protocol: 250 ms batches, the whole user and session in
  // every acknowledgement, the three boards whole in every push.
  baseline: {
    name: 'baseline',
    label: 'before: 250 ms batches, full acks, whole boards',
    windowMs: 250,
  },
  // The game screen now: one batch a window, totals-only acknowledgements, board deltas.
  compact: {
    name: 'compact',
    label: `${TAP_BATCH_WINDOW_MS} ms batches, compact acks, board deltas`,
    windowMs: TAP_BATCH_WINDOW_MS,
    auth: { boards: 'top100', acks: 'compact' },
  },
};
