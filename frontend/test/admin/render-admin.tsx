import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Toaster } from '../../src/components/ui/toaster';
import { AdminPage } from '../../src/features/admin/AdminPage';
import { createQueryClient } from '../../src/lib/query-client';

/** The admin pages as the app routes them (the dashboard and a player's page), at `route`. */
export function renderAdminAt(route: string) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path="/admin" element={<AdminPage />} />
          <Route path="/admin/players/:playerId" element={<AdminPage />} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

/** The page loads the wallet chunk lazily; the first render in a run waits for it. */
export const FIRST_RENDER = { timeout: 10_000 };
