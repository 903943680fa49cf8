import type { LiveEventName, LiveEvents } from '@tapgram/shared';
import { useEffect, useRef } from 'react';
import { onLive, onLiveConnect } from './live-client';

/** Follows a push of the signed-in user's live channel while the calling screen is shown. */
export function useLiveEvent<K extends LiveEventName>(
  event: K,
  listener: (payload: LiveEvents[K]) => void,
): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onLive(event, (payload) => latest.current(payload)), [event]);
}

/** Runs at every (re)connection of the live channel: read again what a lost push would have said. */
export function useLiveConnect(listener: () => void): void {
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onLiveConnect(() => latest.current()), []);
}
