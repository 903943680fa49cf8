import { messages, type TapTotals } from '@tapgram/shared';
import { useCallback, useEffect, useRef, type Dispatch, type RefObject } from 'react';
import { ApiError } from '../../lib/api';
import { toast } from '../../hooks/use-toast';
import { postTap } from './game-api';
import { gameSocket } from './game-socket';
import type { TapStatusEvent } from './tap-status';
import { indexedDbKeptTaps } from './taps/kept-taps-idb';
import {
  emptyKept,
  KeptTapsWriter,
  mergeKept,
  type KeptTaps,
  type KeptTapsStorage,
} from './taps/kept-taps';
import { TapSender, type TapSettled } from './taps/tap-sender';
import { useRefreshAfterTap } from './useRefreshAfterTap';

/** This page's kept taps, one entry in IndexedDB (made on first use: only in a browser). */
let keptStorage: KeptTapsStorage | null = null;
const keptTaps = () => (keptStorage ??= indexedDbKeptTaps());
/** What a page's former sender held, for the next one; and the adoptions, one after another. */
let handover: KeptTaps | null = null;
let adopting: Promise<unknown> = Promise.resolve();

/** Whatever the cause (a 429 included), a tap that was not counted says this, and only this. */
function reportTapFailure(error: Error) {
  console.error('Tap failed', error);
  toast({
    title: 'Error',
    description: 'Failed to register tap. Please try again.',
    variant: 'destructive',
  });
}

/** The server refuses every tap of a frozen player: its `{error}` says so, the same on REST and socket. */
function isFrozenRefusal(error: Error): boolean {
  return error instanceof ApiError && error.serverMessage === messages.playerFrozen;
}

interface Options {
  /** The session on show (its waiting taps are added to the Session counter). */
  sessionId: string | null;
  /** A frozen player's taps are refused: no sender runs, and what the device keeps waits. */
  frozen: boolean;
  report: Dispatch<TapStatusEvent>;
  /** An answer's totals for the player (stable: the sender is made again when it changes). */
  applyTotals: (answer: { userId: string; sessionId: string; totals: TapTotals }) => void;
  /** The server said the player is frozen (newer than any read of it still running). */
  setFrozen: (frozen: boolean) => void;
}

/**
 * The page's tap sender: made once the player may tap, handed what earlier pages kept on the
 * device (and what this page's former sender held), its taps kept on the device as they change;
 * its answers move the player's totals and the status line.
 */
export function useTapSender({
  sessionId,
  frozen,
  report,
  applyTotals,
  setFrozen,
}: Options): RefObject<TapSender | null> {
  const refreshAfterTap = useRefreshAfterTap();
  const sender = useRef<TapSender | null>(null);
  const sessionRef = useRef<string | null>(null);
  useEffect(() => {
    sessionRef.current = sessionId;
  }, [sessionId]);
  // Where the taps stand, after any change of the sender's.
  const follow = useCallback(
    (from: TapSender, reconnecting?: boolean) =>
      report({
        type: 'followed',
        ...from.waiting(sessionRef.current),
        offline: from.offline,
        reconnecting,
      }),
    [report],
  );
  useEffect(() => {
    if (frozen) return;
    let disposed = false;
    const created: TapSender = new TapSender({
      socket: gameSocket(),
      postTap,
      onKeep: () => {
        if (!disposed) writer.changed();
      },
      onSettled: ({ userId, sessionId, totals, accepted, sent }: TapSettled) => {
        // The server's totals hold the counted taps; what it refused leaves the counters here.
        report({ type: 'heard' });
        follow(created);
        // Answers can arrive out of order; keep the newest totals, of this player's session.
        applyTotals({ userId, sessionId, totals });
        if (accepted < sent)
          reportTapFailure(new Error(`${sent - accepted} of ${sent} taps refused`));
        refreshAfterTap(userId);
      },
      onError: (error) => {
        // A refusal is an answer: the server can be reached.
        if (error instanceof ApiError) report({ type: 'heard' });
        if (isFrozenRefusal(error)) {
          // Every further tap would be refused too: stop sending, and the screen says why.
          created.stop();
          setFrozen(true);
        } else {
          reportTapFailure(error);
        }
        follow(created);
      },
      // The game is briefly unavailable, or serves again: one status, and taps are kept meanwhile.
      onChange: () => follow(created, created.unavailable && !created.offline),
    });
    const writer = new KeptTapsWriter(
      keptTaps(),
      () => created.snapshot(),
      (error) => console.error('Could not keep taps on this device', error),
    );
    // A page being hidden or closed may not live to finish an asynchronous write: its taps are
    // copied at once (after the sender, listening since it was made, has sent its window's).
    const leaving = () => writer.writeNow();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') leaving();
    };
    window.addEventListener('pagehide', leaving);
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('freeze', leaving);
    // Taps an earlier page kept (a reload, a closed tab, the last visit) go first, with those
    // of this page's former sender, after what that one adopted.
    const adopted = adopting.then(() => writer.adopt());
    adopting = adopted;
    void adopted.then((kept) => {
      if (disposed) {
        // Adopted too late for this sender: kept for the next one, and on the device meanwhile.
        handover = mergeKept([handover ?? emptyKept(), kept]);
        keptTaps()
          .write(handover)
          .catch(() => undefined);
        return;
      }
      const given = handover ?? emptyKept();
      handover = null;
      created.restore(mergeKept([kept, given]));
      if (created.unconfirmed > 0) report({ type: 'adopted' });
      follow(created);
    });
    sender.current = created;
    return () => {
      disposed = true;
      window.removeEventListener('pagehide', leaving);
      document.removeEventListener('visibilitychange', onVisibility);
      document.removeEventListener('freeze', leaving);
      created.dispose();
      // The next sender of this page (after an unfreeze, say) takes over what this one holds.
      handover = mergeKept([handover ?? emptyKept(), created.snapshot()]);
    };
  }, [refreshAfterTap, frozen, follow, report, applyTotals, setFrozen]);
  return sender;
}
