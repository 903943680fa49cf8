import type { AuthMethod, AuthState, LolgramUser } from '@tapgram/shared';
import { createContext, useContext } from 'react';

export interface AuthContextValue {
  state: AuthState;
  login: (username: string, password: string) => Promise<LolgramUser>;
  signedIn: (user: LolgramUser, authMethod: AuthMethod) => void;
  logout: () => Promise<void>;
  updateUser: (user: LolgramUser) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
