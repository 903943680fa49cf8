import { AtSign, BarChart3, Laugh } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { GameConfig } from '@tapgram/shared';

const linkClass =
  'inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 rounded-xl px-3 py-2 text-sm font-semibold text-slate-200 hover:bg-slate-800';

export function GameHeader({ config }: { config: GameConfig | undefined }) {
  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
      <nav
        className="mx-auto flex h-14 max-w-6xl items-center justify-between px-4"
        aria-label="Main"
      >
        <Link to="/" className="text-xl font-black tracking-tight">
          Tap<span className="text-amber-300">Gram</span>
        </Link>
        <div className="flex items-center gap-1">
          <a
            href={config?.socialUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClass}
          >
            <AtSign className="h-4 w-4" aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">Social</span>
          </a>
          <a
            href={config?.chartUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={linkClass}
          >
            <BarChart3 className="h-4 w-4" aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">Chart</span>
          </a>
          <Link to="/lolgram" className={linkClass}>
            <Laugh className="h-4 w-4" aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">LOLGram</span>
          </Link>
        </div>
      </nav>
    </header>
  );
}
