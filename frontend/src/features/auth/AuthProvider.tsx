import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { meQuery, setSignedIn, storedSignedIn } from './me-query';
import { SESSION_KEY } from './session-storage';

/**
 * Checks the stored sign-in with the server as LOLGram opens, and follows sign-ins and sign-outs
 * made in other tabs. The state itself is the me query's (see useAuth).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  useQuery(meQuery);

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
