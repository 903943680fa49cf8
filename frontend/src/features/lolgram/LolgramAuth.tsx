import type { ReactNode } from 'react';
import { AuthProvider } from '../auth';
import { useOwnPostsLive } from './posts';

/** The sign-in state of every LOLGram page, with the signed-in user's posts followed live. */
export function LolgramAuth({ children }: { children: ReactNode }) {
  useOwnPostsLive();
  return <AuthProvider>{children}</AuthProvider>;
}
