import type { LolgramUser } from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { Toaster } from '../../src/components/ui/toaster';
import { SESSION_KEY } from '../../src/features/auth/session-storage';
import { AuthProvider } from '../../src/features/auth';
import { createQueryClient } from '../../src/lib/query-client';
import { makeSession, meAnswer } from './builders';
import type { FetchStub } from './fetch-stub';
import { json } from './fetch-stub';

/** Stores a fresh session for `user` and answers GET /me with it, as a signed-in browser would. */
export function signIn(fetchStub: FetchStub, user: LolgramUser, { isAdmin = false } = {}): void {
  localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession(user)));
  fetchStub.on('GET', '/api/lolgram/users/me', () => json(meAnswer(user, isAdmin)));
}

export function renderWithApp(
  ui: ReactElement,
  { route = '/lolgram', path = '/lolgram', auth = true } = {},
) {
  const client = createQueryClient();
  const content = auth ? <AuthProvider>{ui}</AuthProvider> : ui;
  const rendered = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={path} element={content} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...rendered, client };
}
