import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { startLive, stopLive } from './live-client';
import { meQuery, setSignedIn, storedSignedIn } from './me-query';
import { SESSION_KEY } from './session-storage';

/**
 * Checks the stored sign-in with the server as LOLGram opens, and follows sign-ins and sign-outs
 * made in other tabs. The state itself is the me query's (see useAuth). While someone is signed
 * in, their live channel is open.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const userId = me.isError ? null : (me.data?.user.id ?? null);

  useEffect(() => {
    if (!userId) return;
    // A refused or ended live socket may mean the session ended: the me query asks the server.
    startLive(userId, () => void queryClient.invalidateQueries({ queryKey: meQuery.queryKey }));
    return stopLive;
  }, [queryClient, userId]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === SESSION_KEY || event.key === null) {
        setSignedIn(queryClient, storedSignedIn());
      }
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  return children;
}
