// @vitest-environment happy-dom
import type { ChangeCountryResult } from '@tapgram/shared';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/lib/api';
import { ChangeCountryDialog, NEEDS_CONNECTION } from '../../src/features/game/ChangeCountryDialog';
import { changeCountry } from '../../src/features/game/game-api';

vi.mock('../../src/features/game/game-api', () => ({ changeCountry: vi.fn() }));
const changeCountryMock = vi.mocked(changeCountry);

const answered = (country: string): ChangeCountryResult => ({
  user: {
    id: '00000000-0000-4000-8000-000000000001',
    username: 'player_one',
    country,
    totalPoints: 40,
    totalTaps: 40,
  },
  changed: true,
  nextChangeAt: '2026-12-28T14:03:00.000Z',
});

function renderDialog(days: number | undefined = 30) {
  const onOpenChange = vi.fn<(open: boolean) => void>();
  const onChanged = vi.fn<(country: string) => void>();
  render(
    <ChangeCountryDialog
      open
      onOpenChange={onOpenChange}
      current="GB"
      days={days}
      onChanged={onChanged}
    />,
  );
  const chooser = screen.getByLabelText<HTMLSelectElement>('Country');
  const submit = screen.getByRole('button', { name: 'Change country' });
  return { onOpenChange, onChanged, chooser, submit };
}

beforeEach(() => {
  changeCountryMock.mockReset();
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("the Country tile's change dialog", () => {
  it("starts at the player's country and says how often it may change", () => {
    const { chooser } = renderDialog(30);
    expect(chooser.value).toBe('GB');
    expect(screen.getByText(/You can change it once every 30 days\./)).toBeTruthy();
  });

  it('says nothing of a period when the game allows a change at any time', () => {
    renderDialog(0);
    expect(screen.queryByText(/once every/)).toBeNull();
  });

  it('closes without a call when the country chosen is the current one', async () => {
    const { onOpenChange, submit } = renderDialog();
    await userEvent.click(submit);
    expect(changeCountryMock).not.toHaveBeenCalled();
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('sends the chosen country, hands on the answer and closes', async () => {
    changeCountryMock.mockResolvedValue(answered('FR'));
    const { onOpenChange, onChanged, chooser, submit } = renderDialog();
    await userEvent.selectOptions(chooser, 'FR');
    await userEvent.click(submit);
    expect(changeCountryMock).toHaveBeenCalledWith('FR');
    expect(onChanged).toHaveBeenCalledWith('FR');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it("shows the server's refusal in its words and stays open", async () => {
    const message = 'You changed your country lately: you can change it again on 2026-12-28.';
    changeCountryMock.mockRejectedValue(new ApiError(429, { error: message }, message, 60_000));
    const { onOpenChange, onChanged, chooser, submit } = renderDialog();
    await userEvent.selectOptions(chooser, 'DE');
    await userEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(onChanged).not.toHaveBeenCalled();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
    // Choosing again clears the refusal.
    await userEvent.selectOptions(chooser, 'FR');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a change needs a connection when the call gets no answer, or the device is offline', async () => {
    changeCountryMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const { chooser, submit } = renderDialog();
    await userEvent.selectOptions(chooser, 'DE');
    await userEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe(NEEDS_CONNECTION);

    changeCountryMock.mockClear();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await userEvent.selectOptions(chooser, 'FR');
    await userEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe(NEEDS_CONNECTION);
    expect(changeCountryMock).not.toHaveBeenCalled();
  });
});
