import type { SignInProof } from '@tapgram/shared';
import { lazy, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';

type Lazy<Props> = LazyExoticComponent<ComponentType<Props>>;

/** The wallet adapter is heavy; it loads only once the social app is opened. */
export const WalletProviders: Lazy<{ children: ReactNode }> = lazy(() =>
  import('../../wallet').then((m) => ({ default: m.WalletProviders })),
);
export const WalletSection: Lazy<{ onSignedIn?: () => void }> = lazy(() =>
  import('../../wallet').then((m) => ({ default: m.WalletSection })),
);
export const WalletButton: Lazy<Record<string, never>> = lazy(() =>
  import('../../wallet').then((m) => ({ default: m.WalletButton })),
);
export const WalletAutoSignIn: Lazy<Record<string, never>> = lazy(() =>
  import('../../wallet').then((m) => ({ default: m.WalletAutoSignIn })),
);
export const WalletProofButton: Lazy<{ label: string; onProof: (proof: SignInProof) => void }> =
  lazy(() => import('../../wallet').then((m) => ({ default: m.WalletProofButton })));
