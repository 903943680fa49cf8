import { useEffect, useState } from 'react';
import type { Player } from './game-api';
import { gameStorage } from './storage';
import type { Waiting } from './tap-status';

interface Shown {
  sessionId: string;
  session: number;
  total: number;
}

/** `figures`, not below what the player saw on this device before (a reload, the last visit). */
function notBelowSeen(figures: Shown, userId: string): Shown {
  const seen = gameStorage.seen();
  if (!seen || seen.userId !== userId) return figures;
  return {
    ...figures,
    session:
      seen.sessionId === figures.sessionId
        ? Math.max(figures.session, seen.session)
        : figures.session,
    total: Math.max(figures.total, seen.total),
  };
}

/**
 * The waiting taps the server's figures, answered at `asOf`, cannot hold: all of them but those
 * sent by then (figures of an unknown time may hold every tap sent).
 */
function notIn(
  asOf: number | null,
  { unconfirmed, waitingHere, sent }: Waiting,
  sessionId: string,
) {
  let total = unconfirmed;
  let here = waitingHere;
  for (const taps of sent) {
    if (asOf !== null && taps.at > asOf) continue;
    total -= taps.count;
    if (taps.sessionId === sessionId) here -= taps.count;
  }
  return { total, here };
}

/**
 * The Session and Total Taps counters as shown: the server's figures and the taps waiting that
 * they cannot hold yet, never going back in front of the player, on this page or the next (a tap
 * the server refused despite the allowance holds them until the server's figures pass them
 * again). A tap sent before the figures were answered may be in them already: it is not added
 * again, so that figures read while its answer is on its way do not count it twice (the shown
 * figures, which never go back, would keep it). A frozen player's taps are not counted: the
 * counters show the server's figures alone.
 */
export function useShownCounters(
  player: Player | null,
  asOf: number | null,
  waiting: Waiting,
  frozen: boolean,
) {
  const session = player?.session;
  const sessionId = session?.id ?? '';
  const userId = player?.user.id ?? '';
  const waits = notIn(asOf, waiting, sessionId);
  const figures = {
    sessionId,
    session: (session?.sessionPoints ?? 0) + (session ? waits.here : 0),
    total: (player?.user.totalTaps ?? 0) + waits.total,
  };
  const [shown, setShown] = useState(figures);
  if (shown.sessionId !== sessionId) {
    setShown(frozen || !userId ? figures : notBelowSeen(figures, userId));
  } else if (frozen) {
    if (shown.session !== figures.session || shown.total !== figures.total) setShown(figures);
  } else if (figures.session > shown.session || figures.total > shown.total) {
    setShown({
      sessionId,
      session: Math.max(shown.session, figures.session),
      total: Math.max(shown.total, figures.total),
    });
  }
  useEffect(() => {
    if (userId && shown.sessionId) gameStorage.saveSeen({ userId, ...shown });
  }, [userId, shown]);
  return {
    sessionShown: Math.max(shown.session, frozen ? 0 : figures.session),
    totalShown: Math.max(shown.total, frozen ? 0 : figures.total),
  };
}
