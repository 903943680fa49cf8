import { useState, type FormEvent } from 'react';
import { CountryChooser } from '../../components/CountryChooser';
import { Button } from '../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../components/ui/dialog';
import { toast } from '../../hooks/use-toast';
import { ApiError } from '../../lib/api';
import { countryName } from '../../lib/countries';
import { changeCountry } from './game-api';

export const NEEDS_CONNECTION =
  'Changing your country needs a connection: try again once you are online.';

/** Why a change did not go through, in words for the player. */
function refusal(error: unknown): string {
  // The server's own words (a 429 names when the next change is possible); no answer: offline.
  if (error instanceof ApiError) {
    return error.serverMessage ?? 'Your country could not be changed: try again in a moment.';
  }
  return NEEDS_CONNECTION;
}

/**
 * The Country tile's Change: the welcome dialog's chooser, for a player who plays already. Their
 * points move with them to the new country's boards (the server's rule, at most once every
 * `days` days).
 */
export function ChangeCountryDialog({
  open,
  onOpenChange,
  current,
  days,
  onChanged,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  current: string;
  /** COUNTRY_CHANGE_DAYS, when the game's config is known. */
  days: number | undefined;
  onChanged: (country: string) => void;
}) {
  const [country, setCountry] = useState(current);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Each opening starts from the player's country, with no refusal shown.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setCountry(current);
      setError(null);
    }
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (country === current) {
      onOpenChange(false);
      return;
    }
    if (!navigator.onLine) {
      setError(NEEDS_CONNECTION);
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const { user } = await changeCountry(country);
      onChanged(user.country);
      onOpenChange(false);
      toast({
        title: 'Country changed',
        description: `You now play for ${countryName(user.country)}: your points moved with you.`,
      });
    } catch (caught) {
      setError(refusal(caught));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !saving && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change your country</DialogTitle>
          <DialogDescription>
            All your points move to the new country&apos;s boards.
            {days ? ` You can change it once every ${days} days.` : ''}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-3" noValidate>
          <CountryChooser
            id="change-country"
            value={country}
            onChange={(code) => {
              setCountry(code);
              setError(null);
            }}
            disabled={saving}
          />
          {error && (
            <p role="alert" className="text-sm text-red-400">
              {error}
            </p>
          )}
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              disabled={saving}
              onClick={() => onOpenChange(false)}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Changing...' : 'Change country'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
