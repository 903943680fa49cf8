import { countryOptions } from '../lib/countries';
import { CountryFlag } from './CountryFlag';

/**
 * The country chooser of the welcome dialog and of a later change: the chosen country's flag
 * beside a native select of every country (keyboard, touch and screen readers as the platform
 * gives them), labelled "Country".
 */
export function CountryChooser({
  id,
  value,
  onChange,
  disabled = false,
}: {
  id: string;
  value: string;
  onChange: (code: string) => void;
  disabled?: boolean;
}) {
  return (
    // min-w-0: a select is as wide as its longest option, which must not widen the dialog.
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-300">
        Country
      </label>
      <div className="flex h-11 min-w-0 items-center gap-2 rounded-xl border border-slate-600 bg-slate-950 pl-3 focus-within:outline-2 focus-within:outline-amber-300">
        <CountryFlag code={value} className="text-lg" />
        <select
          id={id}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
          className="h-full min-w-0 flex-1 bg-transparent pr-3 text-base text-slate-100 outline-none disabled:cursor-not-allowed disabled:opacity-50"
        >
          {countryOptions().map((option) => (
            <option key={option.code} value={option.code} className="bg-slate-900">
              {option.name}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
