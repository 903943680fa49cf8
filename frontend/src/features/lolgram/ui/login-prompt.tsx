import { createContext, useContext } from 'react';
import { toast } from '../../../hooks/use-toast';

const LoginPromptContext = createContext<(() => void) | null>(null);

/** Lets any part of LOLGram ask a signed-out visitor to sign in (the app opens its dialog). */
export const LoginPromptProvider = LoginPromptContext.Provider;

/** Opens the sign-in dialog where the page has one, else says why signing in is needed. */
export function useLoginPrompt(reason: string): () => void {
  const open = useContext(LoginPromptContext);
  return () => {
    if (open) open();
    else toast({ title: 'Login Required', description: reason });
  };
}
