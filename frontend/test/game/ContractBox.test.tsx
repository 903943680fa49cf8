import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Toaster } from '../../src/components/ui/toaster';
import { ContractBox } from '../../src/features/game/ContractBox';
import { dismiss } from '../../src/hooks/use-toast';

const ADDRESS = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

afterEach(() => {
  dismiss();
  cleanup();
});

describe('ContractBox', () => {
  it('copies the address with Copy CA and says so in a toast', async () => {
    const user = userEvent.setup();
    render(
      <>
        <ContractBox address={ADDRESS} />
        <Toaster />
      </>,
    );
    expect(screen.getByText(ADDRESS)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy CA' }));
    expect(await navigator.clipboard.readText()).toBe(ADDRESS);
    expect(await screen.findByText('Copied!')).toBeInTheDocument();
    expect(screen.getByText('Contract address copied to clipboard')).toBeInTheDocument();
  });

  it('cannot copy before the address is known', () => {
    render(<ContractBox address={undefined} />);
    expect(screen.getByRole('button', { name: 'Copy CA' })).toBeDisabled();
  });
});
