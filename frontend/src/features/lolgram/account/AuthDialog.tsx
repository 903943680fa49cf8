import { messages } from '@tapgram/shared';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { NoSuchAccountError, signedInBefore, useAuth } from '../../auth';
import { WalletSlot } from './WalletSlot';
import { focusWhenReady } from '../../../lib/focus-when-ready';
import { FOCUS_TARGETS } from '../lib/focus-targets';

type AuthMode = 'login' | 'signup';

const copy = {
  login: {
    title: 'Welcome Back!',
    description: 'Sign in to share your LOLs.',
    submit: 'Sign In',
    working: 'Signing In...',
    switchPrompt: "Don't have an account?",
    switchLabel: 'Sign up',
  },
  signup: {
    title: 'Join LOLGram',
    description: 'Create an account and start sharing the funniest photos.',
    submit: 'Create Account',
    working: 'Creating Account...',
    switchPrompt: 'Already have an account?',
    switchLabel: 'Sign in',
  },
} as const;

/**
 * Signing in or up. `firstMode`: how it opens; by default "Welcome Back!" where someone signed in
 * on this device before, else "Join LOLGram" (a first visit has no account to come back to).
 */
export function AuthDialog({
  open,
  onOpenChange,
  firstMode,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  firstMode?: AuthMode;
}) {
  const { login, signIn } = useAuth();
  const [mode, setMode] = useState<AuthMode>('login');
  // The mode is chosen each time the dialog opens (the device may have seen a sign-in since).
  const [shownOpen, setShownOpen] = useState(false);
  if (open !== shownOpen) {
    setShownOpen(open);
    if (open) setMode(firstMode ?? (signedInBefore() ? 'login' : 'signup'));
  }
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [working, setWorking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // "Welcome Back!" with a name nobody has: the name, until the user edits it or chooses to sign
  // up with it (which asks for the password again: no key press alone makes an account).
  const [missing, setMissing] = useState<string | null>(null);
  const usernameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  // The field that takes the focus once the form is enabled again (after an answer, or a switch
  // to the sign-up form).
  const focusNext = useRef<'username' | 'password' | null>(null);
  useEffect(() => {
    if (working || !focusNext.current) return;
    const input = (focusNext.current === 'username' ? usernameInput : passwordInput).current;
    focusNext.current = null;
    input?.focus();
    if (input === usernameInput.current) input?.select();
  }, [working, mode, missing]);
  const problemId = useId();
  const askId = useId();
  const text = copy[mode];
  const described = problem ? { 'aria-invalid': true, 'aria-describedby': problemId } : {};

  const change = (next: boolean) => {
    if (!next) {
      setUsername('');
      setPassword('');
      setProblem(null);
      setMissing(null);
    }
    onOpenChange(next);
  };
  const close = () => change(false);
  // Signed in: the dialog goes, and the focus to the signed-in header's account button.
  const signedInClose = () => {
    close();
    focusWhenReady(() => document.getElementById(FOCUS_TARGETS.account));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) {
      setProblem(messages.fillAllFields);
      return;
    }
    await run(() => (mode === 'login' ? signIn(username, password) : login(username, password)));
  };

  const run = async (work: () => Promise<unknown>) => {
    setProblem(null);
    setWorking(true);
    try {
      await work();
      signedInClose();
    } catch (error) {
      const noAccount = error instanceof NoSuchAccountError;
      setMissing(noAccount ? error.username : null);
      if (noAccount) {
        // Most often a typo: the name is where the user fixes it.
        focusNext.current = 'username';
      } else {
        setProblem((error instanceof Error && error.message) || 'Authentication failed');
      }
    } finally {
      setWorking(false);
    }
  };
  const edited = () => {
    setProblem(null);
    setMissing(null);
  };
  const signUpAs = () => {
    setMode('signup');
    setPassword('');
    edited();
    focusNext.current = 'password';
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle className="text-center text-2xl">{text.title}</DialogTitle>
          <DialogDescription className="text-center">{text.description}</DialogDescription>
        </DialogHeader>

        <WalletSlot onSignedIn={signedInClose} />

        <div
          className="flex items-center gap-3 text-xs text-slate-400 uppercase"
          aria-hidden="true"
        >
          <span className="h-px flex-1 bg-slate-700" />
          or
          <span className="h-px flex-1 bg-slate-700" />
        </div>

        <form onSubmit={submit} className="grid gap-3" noValidate>
          <label className="grid gap-1.5 text-sm font-medium">
            Username
            <Input
              ref={usernameInput}
              value={username}
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              disabled={working}
              {...described}
              onChange={(event) => {
                setUsername(event.target.value);
                edited();
              }}
            />
          </label>
          <label className="grid gap-1.5 text-sm font-medium">
            Password
            <Input
              ref={passwordInput}
              type="password"
              value={password}
              autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
              disabled={working}
              {...described}
              onChange={(event) => {
                setPassword(event.target.value);
                edited();
              }}
            />
          </label>
          {problem && (
            <p id={problemId} role="alert" className="text-sm text-red-400">
              {problem}
            </p>
          )}
          {missing && (
            <div
              role="group"
              aria-labelledby={askId}
              className="grid gap-2 rounded-xl border border-amber-400/40 bg-slate-950 p-3"
            >
              <p id={askId} className="text-sm wrap-anywhere">
                {`There is no account named ${missing}.`}
              </p>
              <p className="text-sm text-slate-400">
                Check the spelling, or create it: you will be asked for the password again.
              </p>
              <Button type="button" variant="outline" disabled={working} onClick={signUpAs}>
                <span className="truncate">{`Sign up as ${missing}`}</span>
              </Button>
            </div>
          )}
          <Button type="submit" size="lg" disabled={working}>
            {working ? text.working : text.submit}
          </Button>
        </form>

        <p className="text-center text-sm text-slate-400">
          {text.switchPrompt}{' '}
          <button
            type="button"
            className="font-semibold text-amber-300 underline-offset-4 hover:underline"
            onClick={() => {
              setMode(mode === 'login' ? 'signup' : 'login');
              edited();
            }}
          >
            {text.switchLabel}
          </button>
        </p>
      </DialogContent>
    </Dialog>
  );
}
