import {
  BIO_MAX_LENGTH,
  firstIssueMessage,
  updateProfileBodySchema,
  USERNAME_MAX_LENGTH,
  type LolgramUser,
} from '@tapgram/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { CountedTextarea } from '../../../components/ui/counted-textarea';
import { Input } from '../../../components/ui/input';
import { useUpdateProfile } from './useUpdateProfile';
import { serverError } from '../../../lib/server-error';

function EditProfileForm({ user, onDone }: { user: LolgramUser; onDone: () => void }) {
  const [username, setUsername] = useState(user.username);
  const [bio, setBio] = useState(user.bio ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateProfile(user.id);
  const ids = { problem: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = updateProfileBodySchema.safeParse({ username, bio });
    if (!parsed.success) {
      setProblem(firstIssueMessage(parsed.error));
      return;
    }
    try {
      await update.mutateAsync(parsed.data);
      onDone();
    } catch (error) {
      setProblem(serverError(error, 'Failed to update profile'));
    }
  };

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <label className="grid gap-1.5 text-sm font-medium">
        Username
        <Input
          value={username}
          required
          maxLength={USERNAME_MAX_LENGTH}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? ids.problem : undefined}
          onChange={(event) => {
            setUsername(event.target.value);
            setProblem(null);
          }}
        />
      </label>
      <CountedTextarea
        label="Bio"
        value={bio}
        rows={4}
        maxLength={BIO_MAX_LENGTH}
        placeholder="Tell people what makes you LOL"
        onValueChange={(value) => {
          setBio(value);
          setProblem(null);
        }}
      />
      {problem && (
        <p id={ids.problem} role="alert" className="text-sm text-red-400">
          {problem}
        </p>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

export function EditProfileDialog({
  user,
  open,
  onOpenChange,
}: {
  user: LolgramUser;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit Profile</DialogTitle>
          <DialogDescription>Change how others see you on LOLGram.</DialogDescription>
        </DialogHeader>
        <EditProfileForm user={user} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
