import { Laugh } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonVariants } from '../../components/ui/button';
import { cn } from '../../lib/cn';

export function LandingPage() {
  return (
    <main className="relative flex min-h-screen flex-col items-center justify-center overflow-hidden px-6 text-center">
      <div
        aria-hidden="true"
        className="absolute -top-40 left-1/2 h-[36rem] w-[36rem] -translate-x-1/2 rounded-full bg-gradient-to-br from-amber-400/30 via-fuchsia-500/20 to-sky-500/20 blur-3xl"
      />
      <div className="relative flex max-w-2xl flex-col items-center gap-6">
        <Laugh className="h-20 w-20 text-amber-300" strokeWidth={1.75} aria-hidden="true" />
        <h1 className="text-5xl font-black tracking-tight sm:text-7xl">
          Tap<span className="text-amber-300">Gram</span>
        </h1>
        <p className="text-lg text-slate-300 sm:text-xl">
          Tap to earn, climb the live leaderboards, and share your best LOLs.
        </p>
        <div className="flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <Link to="/play" className={cn(buttonVariants({ size: 'lg' }), 'text-lg')}>
            Play the game
          </Link>
          <Link
            to="/lolgram"
            className={cn(buttonVariants({ size: 'lg', variant: 'outline' }), 'text-lg')}
          >
            Open LOLGram
          </Link>
        </div>
        <Link
          to="/leaderboard"
          className="text-sm text-slate-400 underline-offset-4 hover:underline"
        >
          Watch the live leaderboard
        </Link>
      </div>
    </main>
  );
}
