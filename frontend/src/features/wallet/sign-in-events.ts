import type { LolgramUser } from '@tapgram/shared';

type Listener = (user: LolgramUser) => void;

const listeners = new Set<Listener>();

/** Lets a wallet button learn that the automatic sign-in it started has finished. */
export function onWalletSignedIn(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function announceWalletSignIn(user: LolgramUser): void {
  for (const listener of listeners) listener(user);
}
