import {
  accountMessages,
  changePasswordBodySchema,
  firstIssueMessage,
  PASSWORD_MAX_LENGTH,
  type AccountSettings,
  type SignInProof,
} from '@tapgram/shared';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../hooks/use-toast';
import { serverError } from '../../../lib/server-error';
import { useAuth } from '../../auth';
import { WalletSlot } from '../account';
import { useAccountActions, useAccountSettings } from './useAccountSettings';

type Actions = ReturnType<typeof useAccountActions>;

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid gap-3 border-t border-slate-800 pt-4">
      <h3 id={id} className="text-base font-bold">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Problem({ id, text }: { id?: string; text: string | null }) {
  return text ? (
    <p id={id} role="alert" className="text-sm text-red-400">
      {text}
    </p>
  ) : null;
}

function PasswordField({
  label,
  value,
  onChange,
  autoComplete,
  describedBy,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete: 'current-password' | 'new-password';
  describedBy?: string;
}) {
  return (
    <label className="grid gap-1.5 text-sm font-medium">
      {label}
      <Input
        type="password"
        value={value}
        maxLength={PASSWORD_MAX_LENGTH}
        autoComplete={autoComplete}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

/** A wallet's signature, asked through the page's wallet host (memoised: it registers a slot). */
function WalletProof({ label, onProof }: { label: string; onProof: (proof: SignInProof) => void }) {
  const prove = useMemo(() => ({ label, onProof }), [label, onProof]);
  return <WalletSlot kind="prove" prove={prove} />;
}

function PasswordSection({ settings, actions }: { settings: AccountSettings; actions: Actions }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const change = actions.changePassword;

  const send = async (extra: { currentPassword?: string; proof?: SignInProof }) => {
    const parsed = changePasswordBodySchema.safeParse({ newPassword: next, ...extra });
    if (!parsed.success) return setProblem(firstIssueMessage(parsed.error));
    try {
      const { ended } = await change.mutateAsync(parsed.data);
      setCurrent('');
      setNext('');
      setProblem(null);
      toast({
        title: settings.hasPassword ? 'Password changed' : 'Password set',
        description:
          ended > 0 ? `Signed out of ${ended} other device${ended === 1 ? '' : 's'}.` : undefined,
      });
    } catch (error) {
      setProblem(serverError(error, 'The password could not be changed'));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!current) return setProblem(accountMessages.currentPasswordRequired);
    void send({ currentPassword: current });
  };

  if (!settings.hasPassword) {
    return (
      <Section title="Set a password">
        <p className="text-sm text-slate-400">
          Sign in with a username and password as well as your wallet.
        </p>
        <PasswordField
          label="New password"
          value={next}
          onChange={setNext}
          autoComplete="new-password"
          describedBy={problem ? problemId : undefined}
        />
        <WalletProof label="Sign to set password" onProof={(proof) => void send({ proof })} />
        <Problem id={problemId} text={problem} />
      </Section>
    );
  }
  return (
    <Section title="Change password">
      <form onSubmit={submit} className="grid gap-3" noValidate>
        <PasswordField
          label="Current password"
          value={current}
          onChange={setCurrent}
          autoComplete="current-password"
          describedBy={problem ? problemId : undefined}
        />
        <PasswordField
          label="New password"
          value={next}
          onChange={setNext}
          autoComplete="new-password"
          describedBy={problem ? problemId : undefined}
        />
        <Problem id={problemId} text={problem} />
        <Button type="submit" className="h-11" disabled={change.isPending}>
          {change.isPending ? 'Saving...' : 'Change password'}
        </Button>
      </form>
    </Section>
  );
}

function DevicesSection({ settings, actions }: { settings: AccountSettings; actions: Actions }) {
  const [problem, setProblem] = useState<string | null>(null);
  const others = settings.otherSessions;
  const end = async () => {
    try {
      const { ended } = await actions.endOthers.mutateAsync();
      setProblem(null);
      toast({ title: `Signed out of ${ended} other device${ended === 1 ? '' : 's'}` });
    } catch (error) {
      setProblem(serverError(error, 'The other devices could not be signed out'));
    }
  };
  return (
    <Section title="Devices">
      <p className="text-sm text-slate-400" data-testid="other-sessions">
        {others === 0
          ? 'Signed in on this device only.'
          : `Signed in on ${others} other device${others === 1 ? '' : 's'}.`}
      </p>
      <Button
        type="button"
        variant="secondary"
        className="h-11"
        disabled={actions.endOthers.isPending}
        onClick={() => void end()}
      >
        Sign out of all other devices
      </Button>
      <Problem text={problem} />
    </Section>
  );
}

const shortAddress = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`;

function WalletLinkSection({ settings, actions }: { settings: AccountSettings; actions: Actions }) {
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setProblem(null);
      toast({ title: done });
    } catch (error) {
      setProblem(serverError(error, 'The wallet could not be changed'));
    }
  };
  return (
    <Section title="Wallet">
      {settings.walletAddress ? (
        <>
          <p className="text-sm text-slate-300">
            Linked: <span className="font-mono">{shortAddress(settings.walletAddress)}</span>
          </p>
          <Button
            type="button"
            variant="outline"
            className="h-11"
            disabled={actions.unlinkWallet.isPending}
            onClick={() => void run(() => actions.unlinkWallet.mutateAsync(), 'Wallet unlinked')}
          >
            Unlink wallet
          </Button>
        </>
      ) : (
        <>
          <p className="text-sm text-slate-400">
            Link a Solana wallet to sign in with it too. Signing is free and sends no transaction.
          </p>
          <WalletProof
            label="Sign to link"
            onProof={(proof) =>
              void run(() => actions.linkWallet.mutateAsync(proof), 'Wallet linked')
            }
          />
        </>
      )}
      <Problem text={problem} />
    </Section>
  );
}

function DeleteSection({
  settings,
  actions,
  onDeleted,
}: {
  settings: AccountSettings;
  actions: Actions;
  onDeleted: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const remove = async (body: { password?: string; proof?: SignInProof }) => {
    try {
      await actions.deleteAccount.mutateAsync(body);
      onDeleted();
    } catch (error) {
      setProblem(serverError(error, 'The account could not be deleted'));
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setProblem(accountMessages.confirmWith);
    void remove({ password });
  };
  return (
    <Section title="Delete account">
      <p className="text-sm text-slate-400">
        Deletes your posts, comments, LOLs, saves, follows and notifications for good, and signs you
        out everywhere. Your username becomes available to others after a while.
      </p>
      {!asking ? (
        <Button
          type="button"
          variant="destructive"
          className="h-11"
          onClick={() => setAsking(true)}
        >
          Delete account…
        </Button>
      ) : settings.hasPassword ? (
        <form onSubmit={submit} className="grid gap-3" noValidate>
          <PasswordField
            label="Password to confirm"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            describedBy={problem ? problemId : undefined}
          />
          <Problem id={problemId} text={problem} />
          <Button
            type="submit"
            variant="destructive"
            className="h-11"
            disabled={actions.deleteAccount.isPending}
          >
            {actions.deleteAccount.isPending ? 'Deleting...' : 'Delete my account'}
          </Button>
        </form>
      ) : (
        <>
          <WalletProof label="Sign to delete" onProof={(proof) => void remove({ proof })} />
          <Problem id={problemId} text={problem} />
        </>
      )}
    </Section>
  );
}

function SettingsBody({ onDeleted }: { onDeleted: () => void }) {
  const settings = useAccountSettings();
  const actions = useAccountActions();
  if (settings.isError) {
    return (
      <p role="alert" className="text-sm text-red-400">
        {serverError(settings.error, 'Settings could not be loaded')}
      </p>
    );
  }
  if (!settings.data) return <p className="text-sm text-slate-400">Loading settings...</p>;
  return (
    <>
      <PasswordSection settings={settings.data} actions={actions} />
      <DevicesSection settings={settings.data} actions={actions} />
      <WalletLinkSection settings={settings.data} actions={actions} />
      <DeleteSection settings={settings.data} actions={actions} onDeleted={onDeleted} />
    </>
  );
}

/** The signed-in user's account settings, opened from the gear on their profile. */
export function SettingsDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const deleted = () => {
    onOpenChange(false);
    void logout();
    toast({ title: 'Account deleted', description: 'Everything you posted is gone.' });
    navigate('/lolgram', { state: { focusFeed: true } });
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Settings</DialogTitle>
          <DialogDescription>Your password, devices, wallet and account.</DialogDescription>
        </DialogHeader>
        {open && <SettingsBody onDeleted={deleted} />}
      </DialogContent>
    </Dialog>
  );
}
