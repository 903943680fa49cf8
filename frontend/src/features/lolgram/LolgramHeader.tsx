import { PlusSquare } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../components/ui/button';
import { useMediaQuery } from '../../hooks/use-media-query';
import { useAuth } from '../auth';
import { FOCUS_TARGETS } from './lib/focus-targets';
import { NotificationBell } from './notifications';
import { UserAvatar } from './ui/UserAvatar';
import { WalletSlot } from './account';

/** Where the header has room for a wallet user's wallet beside the other buttons. */
const DESKTOP = '(min-width: 1024px)';

export function LolgramHeader({
  onCreatePost,
  onLogin,
  onOpenProfile,
}: {
  onCreatePost: () => void;
  onLogin: () => void;
  onOpenProfile: () => void;
}) {
  const { state } = useAuth();
  const desktop = useMediaQuery(DESKTOP);
  return (
    <header className="sticky top-0 z-30 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-lg items-center justify-between gap-2 px-3">
        <h1 className="text-2xl font-black tracking-tight">
          <Link to="/lolgram" className="rounded-lg">
            LOL<span className="text-amber-300">Gram</span>
          </Link>
        </h1>
        <div className="flex items-center gap-1">
          {desktop && state.isAuthenticated && state.authMethod === 'wallet' && (
            <div
              // The wallet library's button (its stylesheet is outside Tailwind's layers, hence
              // the !), sized to the header's other buttons.
              className="mr-1 [&_.wallet-adapter-button]:h-10! [&_.wallet-adapter-button]:px-4! [&_.wallet-adapter-button]:text-sm!"
              data-testid="header-wallet"
            >
              <WalletSlot kind="account" />
            </div>
          )}
          <button
            type="button"
            onClick={onCreatePost}
            aria-label="Create post"
            className="flex h-11 w-11 items-center justify-center rounded-full text-slate-100 hover:bg-slate-800"
          >
            <PlusSquare className="h-6 w-6" aria-hidden="true" />
          </button>
          {state.isAuthenticated && state.user && <NotificationBell />}
          {state.isAuthenticated && state.user ? (
            <button
              type="button"
              id={FOCUS_TARGETS.account}
              onClick={onOpenProfile}
              aria-label="Your profile"
              className="flex h-11 w-11 items-center justify-center rounded-full"
            >
              <UserAvatar
                src={state.user.avatar}
                srcSet={state.user.avatarSrcset}
                size={32}
                username={state.user.username}
                className="h-8 w-8 border border-amber-400/60"
              />
            </button>
          ) : (
            <Button size="sm" className="h-9" onClick={onLogin}>
              Login / Sign Up
            </Button>
          )}
        </div>
      </div>
    </header>
  );
}
