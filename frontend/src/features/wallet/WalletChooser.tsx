import { WalletReadyState, type WalletName } from '@solana/wallet-adapter-base';
import { useWallet, type Wallet } from '@solana/wallet-adapter-react';
import { useWalletModal } from '@solana/wallet-adapter-react-ui';
import { ChevronDown } from 'lucide-react';
import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { cn } from '../../lib/cn';

function WalletItem({
  wallet,
  onChoose,
}: {
  wallet: Wallet;
  onChoose: (name: WalletName) => void;
}) {
  const { name, icon } = wallet.adapter;
  return (
    <li>
      <button
        type="button"
        onClick={() => onChoose(name)}
        className="flex h-12 w-full items-center gap-3 rounded-xl bg-slate-800 px-4 text-left font-semibold text-slate-100 hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300"
      >
        <img src={icon} alt="" className="h-7 w-7 shrink-0 rounded-md" />
        <span className="flex-1 truncate">{name}</span>
        {wallet.readyState === WalletReadyState.Installed && (
          <span className="text-xs font-medium text-slate-300">Detected</span>
        )}
      </button>
    </li>
  );
}

/**
 * The wallet chooser, in place of the library's own modal: a dialog of the same kind as the
 * app's, so that it stacks over the sign-in dialog (its clicks, focus and Escape are its own)
 * and works alike by mouse, touch and keyboard. Installed wallets first, marked "Detected"; the
 * others behind "More options" (or, with none installed, "Already have a wallet? View options").
 */
export function WalletChooser() {
  const { wallets, select } = useWallet();
  const { visible, setVisible } = useWalletModal();
  const [expanded, setExpanded] = useState(false);
  const moreId = useId();
  // What had the focus when the chooser opened (the button that opened it) gets it back after.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (visible && document.activeElement instanceof HTMLElement) {
      opener.current = document.activeElement;
    }
  }, [visible]);
  const [installed, others] = useMemo(() => {
    const found = wallets.filter((w) => w.readyState === WalletReadyState.Installed);
    return [found, wallets.filter((w) => w.readyState !== WalletReadyState.Installed)];
  }, [wallets]);
  const detected = installed.length > 0;

  const setOpen = (open: boolean) => {
    if (!open) setExpanded(false);
    setVisible(open);
  };
  const choose = (name: WalletName) => {
    select(name);
    setOpen(false);
  };
  const toggleLabel = detected
    ? `${expanded ? 'Less' : 'More'} options`
    : expanded
      ? 'Hide options'
      : 'Already have a wallet? View options';

  return (
    <Dialog open={visible} onOpenChange={setOpen}>
      <DialogContent
        className="max-w-sm"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          opener.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle className="pr-6 text-center text-lg sm:text-left">
            {detected
              ? 'Connect a wallet on Solana to continue'
              : "You'll need a wallet on Solana to continue"}
          </DialogTitle>
          <DialogDescription>
            Solana devnet: signing in signs a free message and sends no transaction.
          </DialogDescription>
        </DialogHeader>
        {detected && (
          <ul className="grid gap-2" aria-label="Detected wallets">
            {installed.map((wallet) => (
              <WalletItem key={wallet.adapter.name} wallet={wallet} onChoose={choose} />
            ))}
          </ul>
        )}
        {others.length > 0 && (
          <>
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={moreId}
              onClick={() => setExpanded(!expanded)}
              className="flex items-center justify-center gap-1.5 rounded-lg py-2 text-sm font-semibold text-slate-200 hover:text-amber-200 focus-visible:outline-2 focus-visible:outline-amber-300"
            >
              {toggleLabel}
              <ChevronDown
                className={cn('h-4 w-4 transition-transform', expanded && 'rotate-180')}
                aria-hidden="true"
              />
            </button>
            <ul
              id={moreId}
              className={expanded ? 'grid gap-2' : 'hidden'}
              hidden={!expanded}
              aria-label="Other wallets"
            >
              {others.map((wallet) => (
                <WalletItem key={wallet.adapter.name} wallet={wallet} onChoose={choose} />
              ))}
            </ul>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
