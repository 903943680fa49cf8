import { useState } from 'react';
import { cn } from '../../../lib/cn';

export const LOGO_PLACEHOLDER = '/favicon.svg';

/**
 * A user's avatar; a missing one shows the logo (or a "LOL" badge), a broken one the logo.
 * `srcSet`: its copies by width, of which the browser takes the one `size` (CSS px) needs.
 */
export function UserAvatar({
  src,
  srcSet,
  size,
  username,
  className,
  missing = 'logo',
}: {
  src: string | null | undefined;
  srcSet?: string;
  size: number;
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
  const copies = usable === src && srcSet ? { srcSet, sizes: `${size}px` } : {};
  return (
    <img
      src={usable}
      {...copies}
      alt={`${username}'s avatar`}
      className={base}
      loading="lazy"
      onError={() => {
        if (src && usable === src) setBrokenSrc(src);
      }}
    />
  );
}
