import { USERNAME_MAX_LENGTH, usernameError } from '@tapgram/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { StayingDialog } from '../../components/ui/staying-dialog';
import { countryOptions, defaultCountry } from '../../lib/countries';
import { CountryFlag } from '../../components/CountryFlag';
import type { TelegramWelcome } from './usePlayer';

/**
 * Non-dismissable: a player needs a username before the first tap. The country starts at the
 * spec's default (US in the Americas' time zones, otherwise GB) and the player may choose another.
 * In Telegram the name is the one Telegram gave (only the country is asked), or, when the launch
 * cannot sign in, the dialog says why.
 */
export function WelcomeDialog({
  open,
  onCreate,
  telegram,
}: {
  open: boolean;
  onCreate: (username: string, country: string) => Promise<void>;
  telegram?: TelegramWelcome | null;
}) {
  const telegramName = telegram?.username;
  if (telegram?.problem) return <TelegramProblem open={open} problem={telegram.problem} />;
  return <WelcomeForm open={open} onCreate={onCreate} telegramName={telegramName} />;
}

function TelegramProblem({ open, problem }: { open: boolean; problem: string }) {
  return (
    <StayingDialog
      open={open}
      title="TapGram could not sign you in from Telegram"
      description={problem}
      descriptionRole="alert"
    />
  );
}

function WelcomeForm({
  open,
  onCreate,
  telegramName,
}: {
  open: boolean;
  onCreate: (username: string, country: string) => Promise<void>;
  telegramName: string | undefined;
}) {
  const [username, setUsername] = useState(telegramName ?? '');
  const [country, setCountry] = useState(() => defaultCountry());
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = usernameError(username);
    setError(problem);
    if (problem) return;
    setCreating(true);
    try {
      await onCreate(username.trim(), country);
    } finally {
      setCreating(false);
    }
  };

  return (
    <StayingDialog
      open={open}
      title={
        telegramName
          ? `Welcome to TapGram, ${telegramName}!`
          : 'Welcome to TapGram! Create a username to start playing'
      }
      description={
        telegramName
          ? `You play as ${telegramName}. Choose your country for the countries' board.`
          : 'Pick a name for the leaderboard: 3 to 20 letters, numbers, _ or -.'
      }
    >
      <form onSubmit={submit} className="grid gap-3" noValidate>
        {/* In Telegram the name is Telegram's: only the country is asked. */}
        {telegramName === undefined && (
          <>
            <label htmlFor="welcome-username" className="sr-only">
              Username
            </label>
            <Input
              id="welcome-username"
              autoFocus
              required
              maxLength={USERNAME_MAX_LENGTH}
              placeholder="Enter your username"
              autoComplete="nickname"
              value={username}
              disabled={creating}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'welcome-username-error' : undefined}
              onChange={(event) => {
                setUsername(event.target.value);
                setError(null);
              }}
            />
            {error && (
              <p id="welcome-username-error" role="alert" className="text-sm text-red-400">
                {error}
              </p>
            )}
          </>
        )}
        {/* min-w-0: a select is as wide as its longest option, which must not widen the dialog. */}
        <div className="grid min-w-0 gap-1.5">
          <label htmlFor="welcome-country" className="text-sm font-medium text-slate-300">
            Country
          </label>
          <div className="flex h-11 min-w-0 items-center gap-2 rounded-xl border border-slate-600 bg-slate-950 pl-3 focus-within:outline-2 focus-within:outline-amber-300">
            <CountryFlag code={country} className="text-lg" />
            <select
              id="welcome-country"
              value={country}
              disabled={creating}
              onChange={(event) => setCountry(event.target.value)}
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
        <Button type="submit" size="lg" disabled={creating}>
          {creating ? 'Creating...' : 'Start Playing!'}
        </Button>
      </form>
    </StayingDialog>
  );
}
