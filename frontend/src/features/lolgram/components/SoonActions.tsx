import { Bookmark, MessageCircle, Send, type LucideIcon } from 'lucide-react';
import { SoonBadge } from './SoonBadge';

const actions: { label: string; icon: LucideIcon }[] = [
  { label: 'Comment', icon: MessageCircle },
  { label: 'Share', icon: Send },
];

function SoonButton({ label, icon: Icon }: { label: string; icon: LucideIcon }) {
  return (
    <button
      type="button"
      disabled
      aria-label={`${label} (coming soon)`}
      className="relative flex h-11 min-w-11 items-center justify-center gap-1 rounded-full px-1 text-slate-500"
    >
      <Icon className="h-6 w-6" aria-hidden="true" />
      <SoonBadge />
    </button>
  );
}

/** Comment and share sit beside the LOL button; save sits on the right. */
export function SoonActions() {
  return (
    <>
      {actions.map((action) => (
        <SoonButton key={action.label} {...action} />
      ))}
    </>
  );
}

export function SaveSoonButton() {
  return <SoonButton label="Save" icon={Bookmark} />;
}
