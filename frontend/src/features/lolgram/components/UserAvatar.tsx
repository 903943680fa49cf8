import { useState } from 'react';
import { cn } from '../../../lib/cn';

export const LOGO_PLACEHOLDER = '/favicon.svg';

/** A user's avatar; a missing one shows the logo (or a "LOL" badge), a broken one the logo. */
export function UserAvatar({
  src,
  username,
  className,
  missing = 'logo',
}: {
  src: string | null | undefined;
  username: string;
  className?: string;
  missing?: 'logo' | 'badge';
}) {
  const [brokenSrc, setBrokenSrc] = useState<string | null>(null);
  const base = cn('shrink-0 rounded-full bg-slate-800 object-cover', className);

  if (!src && missing === 'badge') {
    return (
      <span
        role="img"
        aria-label={`${username}'s avatar`}
        className={cn(
          base,
          'flex items-center justify-center bg-gradient-to-br from-amber-300 to-orange-500 font-black text-slate-950',
        )}
      >
        LOL
      </span>
    );
  }

  const usable = src && src !== brokenSrc ? src : LOGO_PLACEHOLDER;
  return (
    <img
      src={usable}
      alt={`${username}'s avatar`}
      className={base}
      loading="lazy"
      onError={() => {
        if (src && usable === src) setBrokenSrc(src);
      }}
    />
  );
}
