import { USERNAME_MAX_LENGTH, usernameError } from '@tapgram/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { Input } from '../../components/ui/input';

/** Non-dismissable: a player needs a username before the first tap. */
export function WelcomeDialog({
  open,
  onCreate,
}: {
  open: boolean;
  onCreate: (username: string) => Promise<void>;
}) {
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = usernameError(username);
    setError(problem);
    if (problem) return;
    setCreating(true);
    try {
      await onCreate(username.trim());
    } finally {
      setCreating(false);
    }
  };

  return (
    <Dialog open={open}>
      <DialogContent
        hideClose
        onEscapeKeyDown={(event) => event.preventDefault()}
        onPointerDownOutside={(event) => event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <DialogTitle>Welcome to TapGram! Create a username to start playing</DialogTitle>
          <DialogDescription>
            Pick a name for the leaderboard: 3 to 20 letters, numbers, _ or -.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-3" noValidate>
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
          <Button type="submit" size="lg" disabled={creating}>
            {creating ? 'Creating...' : 'Start Playing!'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
