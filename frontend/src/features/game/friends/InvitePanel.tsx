import { invitePath, telegramStartLink } from '@tapgram/shared';
import { Check, Copy, QrCode as QrIcon, Share2 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { inTelegram, telegramShell } from '../../telegram';
import { useGameConfig } from '../queries';
import { useInvite } from './friends-queries';

const QrCode = lazy(() => import('./QrCode').then((m) => ({ default: m.QrCode })));

/** How long "Copied" shows after a copy. */
const COPIED_MS = 2500;

const SHARE_TEXT = 'Tap with me on TapGram!';

/**
 * The player's invite link: Share (the Web Share API where the device has it), else Copy with a
 * visible "Copied"; and a QR code behind a button, for an event screen. In Telegram's Mini App the
 * link opens the Mini App with the code (`t.me/<bot>/<app>?startapp=<code>`) and Share is
 * Telegram's own.
 */
export function InvitePanel({ userId, bonus }: { userId: string; bonus: number | undefined }) {
  const invite = useInvite(userId);
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const [qr, setQr] = useState(false);
  const appUrl = useGameConfig().data?.telegramAppUrl;
  const telegramApp = inTelegram() ? appUrl : undefined;
  const code = invite.data?.code;
  const link = !code
    ? ''
    : telegramApp
      ? telegramStartLink(telegramApp, code)
      : `${window.location.origin}${invitePath(code)}`;
  const canShare = telegramApp !== undefined || typeof navigator.share === 'function';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setFailed(false);
      setCopied(true);
      setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      setFailed(true);
    }
  };
  const share = async () => {
    if (telegramApp && telegramShell.share(link, SHARE_TEXT)) return;
    try {
      await navigator.share({ title: 'TapGram', text: SHARE_TEXT, url: link });
    } catch (error) {
      // Closed by the player: nothing to say. Refused by the device: copy instead.
      if (!(error instanceof DOMException && error.name === 'AbortError')) await copy();
    }
  };

  return (
    <section aria-labelledby="invite-title" className="flex flex-col gap-2" data-testid="invite">
      <h3 id="invite-title" className="text-sm font-bold text-slate-100">
        Invite friends
      </h3>
      {bonus !== undefined && (
        <p className="text-xs text-slate-400">
          You both get {bonus.toLocaleString()} points once they have played a little.
        </p>
      )}
      {invite.data ? (
        <input
          readOnly
          value={link}
          aria-label="Your invite link"
          data-testid="invite-link"
          onFocus={(e) => e.currentTarget.select()}
          className="h-10 w-full min-w-0 rounded-xl bg-slate-950 px-3 font-mono text-xs text-slate-200 ring-1 ring-slate-700"
        />
      ) : (
        <Skeleton className="h-10" />
      )}
      <div className="flex flex-wrap gap-2">
        {canShare ? (
          <Button size="sm" onClick={() => void share()} disabled={!link}>
            <Share2 className="h-4 w-4" aria-hidden="true" /> Share
          </Button>
        ) : (
          <Button size="sm" onClick={() => void copy()} disabled={!link} data-testid="invite-copy">
            {copied ? (
              <Check className="h-4 w-4" aria-hidden="true" />
            ) : (
              <Copy className="h-4 w-4" aria-hidden="true" />
            )}
            {copied ? 'Copied' : 'Copy link'}
          </Button>
        )}
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setQr((shown) => !shown)}
          disabled={!link}
          aria-expanded={qr}
        >
          <QrIcon className="h-4 w-4" aria-hidden="true" />
          {qr ? 'Hide QR code' : 'Show QR code'}
        </Button>
      </div>
      <p role="status" className="text-xs text-emerald-300">
        {copied ? 'Copied: paste the link to your friends.' : ''}
        {failed ? 'Copying is not allowed here: select the link and copy it.' : ''}
      </p>
      {qr && link && (
        <Suspense fallback={<Skeleton className="mx-auto aspect-square w-full max-w-72" />}>
          <QrCode text={link} label="QR code of your invite link" />
        </Suspense>
      )}
    </section>
  );
}
