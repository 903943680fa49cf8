import { useMutation, useQuery } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { errorMessage } from '../../lib/api';
import { createTelegramLinkCode, fetchTelegramLinked } from './telegram-api';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

/**
 * On the web, for a game whose server has a Telegram bot: play this same player in Telegram's Mini
 * App. A one-time link (valid a few minutes) opens the Mini App and binds the Telegram account to
 * this player; once linked, the card just opens the Mini App.
 */
export function TelegramLinkCard({ userId, appUrl }: { userId: string; appUrl: string }) {
  const linked = useQuery({
    queryKey: ['telegram', 'linked', userId],
    queryFn: fetchTelegramLinked,
  });
  const code = useMutation({ mutationFn: createTelegramLinkCode });
  if (linked.data === undefined) return null;
  return (
    <section
      aria-labelledby="telegram-link-title"
      data-testid="telegram-link"
      className="flex flex-col gap-2 rounded-2xl bg-slate-900 p-3 ring-1 ring-slate-800"
    >
      <h2 id="telegram-link-title" className="flex items-center gap-2 text-sm font-bold">
        <Send className="h-4 w-4 text-sky-400" aria-hidden="true" /> Play in Telegram
      </h2>
      {linked.data ? (
        <p className="text-sm text-slate-300">
          This player opens in Telegram too.{' '}
          <a href={appUrl} className="font-semibold text-sky-300 underline underline-offset-2">
            Open the Mini App
          </a>
        </p>
      ) : code.data ? (
        <div className="flex flex-col gap-1 text-sm text-slate-300">
          <a
            href={code.data.link}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="telegram-link-open"
            className="font-semibold break-all text-sky-300 underline underline-offset-2"
          >
            Open in Telegram to link this player
          </a>
          <span className="text-xs text-slate-400">
            The link works once, until {time.format(new Date(code.data.expiresAt))}.
          </span>
        </div>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="min-w-0 flex-1 text-sm text-slate-300">
            Keep your taps and rank when you play from Telegram.
          </p>
          <Button size="sm" onClick={() => code.mutate()} disabled={code.isPending}>
            {code.isPending ? 'Making a link...' : 'Link to Telegram'}
          </Button>
        </div>
      )}
      {code.isError && (
        <p role="alert" className="text-sm text-red-400">
          {errorMessage(code.error)}
        </p>
      )}
    </section>
  );
}
