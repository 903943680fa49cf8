import { USERNAME_MAX_LENGTH, usernameError } from '@tapgram/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { StayingDialog } from '../../components/ui/staying-dialog';
import { defaultCountry } from '../../lib/countries';
import { CountryChooser } from '../../components/CountryChooser';
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
        <CountryChooser
          id="welcome-country"
          value={country}
          onChange={setCountry}
          disabled={creating}
        />
        <Button type="submit" size="lg" disabled={creating}>
          {creating ? 'Creating...' : 'Start Playing!'}
        </Button>
      </form>
    </StayingDialog>
  );
}
