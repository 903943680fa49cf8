import { MAX_KEPT_TAPS } from '@tapgram/shared';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { telegramShell } from '../telegram';
import { useSocketReconnecting } from './game-socket';
import { initialTapStatus, tapStatusReducer } from './tap-status';
import { playTapSound } from './tap-sound';
import { useAllowance } from './useAllowance';
import { usePlayer } from './usePlayer';
import { useShownCounters } from './useShownCounters';
import { useSoundSetting } from './useSoundSetting';
import { useTapSender } from './useTapSender';

export type { GameStatus } from './usePlayer';
export type { SyncState } from './tap-status';

/** The game screen's state: loading the stored player, creating one, and tapping. */
export function useGame() {
  const [taps, report] = useReducer(tapStatusReducer, initialTapStatus);
  const {
    status,
    player,
    fromDevice,
    asOf,
    frozen,
    setFrozen,
    applyTotals,
    createUser,
    countryChanged,
    needUser,
    telegram,
  } = usePlayer(report, taps.offline);
  const { bucket, spent, spend } = useAllowance();
  const sender = useTapSender({
    sessionId: player?.session.id ?? null,
    frozen,
    report,
    applyTotals,
    setFrozen,
  });
  const [soundOn, toggleSound] = useSoundSetting();

  /** Taps made while the stored player was being loaded: counted once it is. */
  const early = useRef(0);
  /** Counts a tap on the screen when the allowance holds it; answers whether it did. */
  const tap = useCallback((): boolean => {
    if (frozen) return false;
    if (!player) {
      // The stored player is still being looked for: no welcome dialog over it, and the tap is
      // kept until it is found (a tap from the moment the character shows is counted).
      if (status === 'loading') {
        early.current += 1;
        return true;
      }
      console.error(new Error('User or session not found'));
      needUser();
      return false;
    }
    const current = sender.current;
    spend();
    // Beyond the allowance (the server would refuse it) or the device's room: not counted.
    if (!current || current.unconfirmed >= MAX_KEPT_TAPS || !bucket.take(1)) return false;
    current.tap(player.user.id, player.session.id);
    report({ type: 'tapped', ...current.waiting(player.session.id) });
    if (soundOn) playTapSound();
    telegramShell.tapped();
    return true;
  }, [player, status, soundOn, frozen, bucket, sender, spend, needUser, report]);

  useEffect(() => {
    if (status === 'loading' || early.current === 0) return;
    const held = early.current;
    early.current = 0;
    // A visitor with no stored player has nobody to credit them to: the welcome dialog asks.
    if (player) for (let i = 0; i < held; i += 1) tap();
  }, [status, player, tap]);

  const { sessionShown, totalShown } = useShownCounters(player, asOf, taps, frozen);

  // In Telegram, closing the Mini App asks first while taps wait to be sent.
  useEffect(() => telegramShell.unsent(taps.unconfirmed), [taps.unconfirmed]);

  // The channel dropped (a deploy, a network change) and is coming back, or the game answered
  // that it is briefly unavailable: either way taps are kept and counted once it serves.
  const socketDown = useSocketReconnecting();

  return {
    status,
    player,
    /** The figures are what the device last knew (the server has not answered them yet), as of `asOf`. */
    fromDevice,
    asOf,
    unconfirmed: taps.unconfirmed,
    sessionShown,
    totalShown,
    // Offline, the status line says so (and what waits): not also that it is reconnecting.
    reconnecting: (taps.reconnecting || socketDown) && !taps.offline,
    offline: taps.offline,
    sync: taps.sync,
    bucket,
    spent,
    frozen,
    soundOn,
    toggleSound,
    createUser,
    /** The server moved the player to another country (the Country tile's Change). */
    countryChanged,
    /** A Mini App launch's welcome: a country for the name Telegram gave, or why it cannot sign in. */
    telegram,
    tap,
  };
}
