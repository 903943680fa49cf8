import { gameEvents, TapBucket } from '@tapgram/shared';
import { useCallback, useEffect, useState } from 'react';
import { gameSocket } from './game-socket';
import { isAllowance } from './taps/tap-answers';

/**
 * The server's tap allowance as the screen applies it (taps beyond it are not counted here),
 * announced on every connection; `spent` changes with every tap the screen takes or turns away,
 * so that the gauge follows.
 */
export function useAllowance() {
  const [bucket] = useState(() => new TapBucket());
  const [spent, setSpent] = useState(0);
  useEffect(() => {
    const socket = gameSocket();
    const onAllowance = (allowance: unknown) => {
      if (isAllowance(allowance)) bucket.setAllowance(allowance);
    };
    socket.on(gameEvents.allowance, onAllowance);
    return () => {
      socket.off(gameEvents.allowance, onAllowance);
    };
  }, [bucket]);
  const spend = useCallback(() => setSpent((n) => n + 1), []);
  return { bucket, spent, spend };
}
