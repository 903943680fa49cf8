import { Globe } from 'lucide-react';
import { cn } from '../lib/cn';
import { countryFlagUrl, countryName } from '../lib/countries';

/**
 * A country's flag as an image, 3:2, sized by the text around it; a globe for a code that names
 * no country. `labelled`: the flag names its country (where no name is written beside it).
 */
export function CountryFlag({
  code,
  labelled = false,
  className,
}: {
  code: string;
  labelled?: boolean;
  className?: string;
}) {
  const url = countryFlagUrl(code);
  const label = labelled ? countryName(code) : undefined;
  const size = 'inline-block h-[0.9em] w-[1.35em] shrink-0 align-[-0.1em]';
  if (!url) {
    return (
      <Globe
        className={cn(size, 'text-sky-300', className)}
        role={label ? 'img' : undefined}
        aria-label={label}
        aria-hidden={label ? undefined : true}
        data-testid="flag-globe"
      />
    );
  }
  return (
    <img
      src={url}
      alt={label ?? ''}
      width={21}
      height={14}
      decoding="async"
      data-testid={`flag-${code}`}
      className={cn(size, 'rounded-[2px] object-cover ring-1 ring-white/10', className)}
    />
  );
}
