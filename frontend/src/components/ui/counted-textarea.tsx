import { useId, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export interface CountedTextareaProps extends Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'value' | 'maxLength' | 'onChange'
> {
  label: string;
  value: string;
  maxLength: number;
  onValueChange: (value: string) => void;
  /** The id of a problem shown under the field: the field is marked invalid and described by it. */
  problemId?: string;
}

/**
 * A labelled text area with its count of characters against the limit under it, read out with
 * the field (aria-describedby).
 */
export function CountedTextarea({
  label,
  value,
  maxLength,
  onValueChange,
  problemId,
  className,
  id,
  ...props
}: CountedTextareaProps) {
  const ownId = useId();
  const fieldId = id ?? ownId;
  const counterId = useId();
  return (
    <div className="grid gap-1.5">
      <label htmlFor={fieldId} className="text-sm font-medium">
        {label}
      </label>
      <textarea
        {...props}
        id={fieldId}
        value={value}
        maxLength={maxLength}
        aria-invalid={problemId ? true : undefined}
        aria-describedby={problemId ? `${problemId} ${counterId}` : counterId}
        onChange={(event) => onValueChange(event.target.value)}
        className={cn(
          'w-full resize-none rounded-xl border border-slate-600 bg-slate-950 px-3 py-2 text-base text-slate-100 placeholder:text-slate-500 focus-visible:outline-2 focus-visible:outline-amber-300',
          className,
        )}
      />
      <p id={counterId} className="text-right text-xs text-slate-400">
        {value.length}/{maxLength}
      </p>
    </div>
  );
}
