import { Copy } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { toast } from '../../hooks/use-toast';

export function ContractBox({ address }: { address: string | undefined }) {
  const copy = async () => {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      toast({ title: 'Copied!', description: 'Contract address copied to clipboard' });
    } catch {
      toast({ title: 'Error', description: 'Could not copy the address', variant: 'destructive' });
    }
  };
  return (
    <div className="flex items-center gap-2 rounded-2xl bg-slate-900 p-3 ring-1 ring-slate-800">
      <span className="shrink-0 text-xs font-bold text-slate-400 uppercase">CA</span>
      <code
        data-testid="contract-address"
        className="min-w-0 flex-1 truncate font-mono text-sm text-slate-200"
        title={address}
      >
        {address ?? '…'}
      </code>
      <Button size="sm" onClick={copy} disabled={!address}>
        <Copy className="h-4 w-4" /> Copy CA
      </Button>
    </div>
  );
}
