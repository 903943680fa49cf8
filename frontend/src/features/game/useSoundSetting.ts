import { useCallback, useState } from 'react';
import { gameStorage } from './storage';

/** The tap sound, on or off, as this device stores it. */
export function useSoundSetting(): [soundOn: boolean, toggle: () => void] {
  const [soundOn, setSoundOn] = useState(gameStorage.sound);
  const toggle = useCallback(() => {
    setSoundOn((on) => {
      gameStorage.setSound(!on);
      return !on;
    });
  }, []);
  return [soundOn, toggle];
}
