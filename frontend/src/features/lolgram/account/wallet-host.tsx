import { createContext, Suspense, useCallback, useContext, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useHydrated } from '../../../lib/hydration';
import { cn } from '../../../lib/cn';
import { QuietBoundary } from '../ui/QuietBoundary';
import type { SignInProof } from '@tapgram/shared';
import {
  WalletAutoSignIn,
  WalletButton,
  WalletProofButton,
  WalletProviders,
  WalletSection,
} from './wallet-lazy';

/** The wallet adapter's key of the wallet chosen last time (the spec's walletName). */
const WALLET_NAME_KEY = 'walletName';

/**
 * What a wallet slot shows: the sign-in button with its note ('sign-in'), or a signed-in wallet
 * user's own wallet, connected or not ('account').
 */
export type WalletSlotKind = 'sign-in' | 'account' | 'prove';

/** A place in the page that shows a wallet button. */
export interface WalletSlotPlace {
  element: HTMLElement;
  kind: WalletSlotKind;
  /** Called once a wallet sign-in this button started has finished. */
  onSignedIn: () => void;
  /** 'prove': the button's words, and where the wallet's signature goes. */
  prove?: WalletProve;
}

/** A signature asked of the wallet for an account setting (see WalletProofButton). */
export interface WalletProve {
  label: string;
  onProof: (proof: SignInProof) => void;
}

type Register = (place: WalletSlotPlace) => () => void;

const HostContext = createContext<Register | null>(null);

/** How a wallet slot asks for its button: null outside a WalletHost. */
export function useWalletHost(): Register | null {
  return useContext(HostContext);
}

function walletChosenBefore(): boolean {
  try {
    return localStorage.getItem(WALLET_NAME_KEY) !== null;
  } catch {
    return false;
  }
}

/** A slot's place while the wallet's code loads: the sign-in button's own size there. */
export function WalletPending({ kind }: { kind: WalletSlotKind }) {
  return (
    <div
      className={cn(
        'animate-pulse bg-slate-800',
        kind === 'sign-in' ? 'h-12 w-44 rounded' : 'h-11 rounded-xl',
      )}
      aria-hidden="true"
    />
  );
}

/** A slot's place when the wallet's code could not load: password sign-in still works. */
export function WalletUnavailable({ kind }: { kind: WalletSlotKind }) {
  if (kind !== 'sign-in') return null;
  return <p className="text-xs text-slate-400">Wallet sign-in could not load.</p>;
}

let nextKey = 0;

/**
 * The wallet adapter is heavy, and most visits never use it: LOLGram renders without it, and its
 * code loads only when wallet UI shows (a wallet slot: the sign-in dialog, the signed-out
 * profile, a wallet user's own profile and desktop header) or when a wallet chosen on an earlier visit is to connect again by itself
 * (auto-connect). Its providers sit beside the app, not around it, so no screen waits for them or
 * mounts again when they arrive; each slot's button is rendered into its place with a portal,
 * inside the providers.
 */
export function WalletHost({ children }: { children: ReactNode }) {
  const [places, setPlaces] = useState<(WalletSlotPlace & { key: string })[]>([]);
  const [asked, setAsked] = useState(false);
  // A wallet chosen before counts once hydrated: the page's HTML, rendered at build time, has none.
  const hydrated = useHydrated();
  const needed = asked || (hydrated && walletChosenBefore());
  const register = useCallback<Register>((place) => {
    nextKey += 1;
    const entry = { ...place, key: `wallet-slot-${nextKey}` };
    setPlaces((current) => [...current, entry]);
    setAsked(true);
    return () => setPlaces((current) => current.filter((other) => other !== entry));
  }, []);

  return (
    <HostContext.Provider value={register}>
      {children}
      {needed && (
        <QuietBoundary
          what="Wallet"
          fallback={places.map((place) =>
            createPortal(<WalletUnavailable kind={place.kind} />, place.element, place.key),
          )}
        >
          <Suspense
            fallback={places.map((place) =>
              createPortal(<WalletPending kind={place.kind} />, place.element, place.key),
            )}
          >
            <WalletProviders>
              <QuietBoundary what="Wallet auto sign-in">
                <Suspense fallback={null}>
                  <WalletAutoSignIn />
                </Suspense>
              </QuietBoundary>
              {places.map((place) =>
                createPortal(
                  <QuietBoundary
                    what="Wallet sign-in"
                    fallback={<WalletUnavailable kind={place.kind} />}
                  >
                    <Suspense fallback={<WalletPending kind={place.kind} />}>
                      {place.kind === 'prove' && place.prove ? (
                        <WalletProofButton {...place.prove} />
                      ) : place.kind === 'account' ? (
                        <WalletButton />
                      ) : (
                        <WalletSection onSignedIn={place.onSignedIn} />
                      )}
                    </Suspense>
                  </QuietBoundary>,
                  place.element,
                  place.key,
                ),
              )}
            </WalletProviders>
          </Suspense>
        </QuietBoundary>
      )}
    </HostContext.Provider>
  );
}
