import { UserRound } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { WalletSlot } from '../account';

export function SignedOutProfile({ onLogin }: { onLogin: () => void }) {
  return (
    <section className="flex flex-col items-center gap-4 px-6 py-16 text-center">
      <span className="flex h-20 w-20 items-center justify-center rounded-full border-2 border-slate-700 text-slate-400">
        <UserRound className="h-10 w-10" aria-hidden="true" />
      </span>
      <h2 className="text-xl font-bold">Your LOLGram profile</h2>
      <p className="max-w-xs text-sm text-slate-400">
        Sign in to share your funniest photos, follow friends and build your profile.
      </p>
      <div className="grid w-full max-w-xs gap-3">
        <Button size="lg" onClick={onLogin}>
          Login / Sign Up
        </Button>
        <WalletSlot />
      </div>
    </section>
  );
}
