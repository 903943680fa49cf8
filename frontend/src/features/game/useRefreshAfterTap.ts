import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { gameSocket } from './game-socket';
import { gameKeys } from './queries';
import { throttle } from './throttle';

const REFRESH_THROTTLE_MS = 1000;

/**
 * After a counted tap: the player's rank, neighbours, season and friends board, and the boards when the game channel is
 * down (it pushes them otherwise). At most once a second during a burst, and once more when the
 * burst ends, so the tiles settle on the final figures.
 */
export function useRefreshAfterTap(): (userId: string) => void {
  const queryClient = useQueryClient();
  const [refresh] = useState(() =>
    throttle((userId: string) => {
      void queryClient.invalidateQueries({ queryKey: gameKeys.rank(userId) });
      void queryClient.invalidateQueries({ queryKey: gameKeys.around(userId) });
      void queryClient.invalidateQueries({ queryKey: gameKeys.seasons(userId) });
      void queryClient.invalidateQueries({ queryKey: gameKeys.friendsBoard(userId) });
      if (!gameSocket().connected) {
        void queryClient.invalidateQueries({ queryKey: gameKeys.users });
        void queryClient.invalidateQueries({ queryKey: gameKeys.countries });
        void queryClient.invalidateQueries({ queryKey: gameKeys.seasonUsers });
        void queryClient.invalidateQueries({ queryKey: gameKeys.seasonCountries });
      }
    }, REFRESH_THROTTLE_MS),
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  return refresh;
}
