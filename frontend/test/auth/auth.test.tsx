// @vitest-environment happy-dom
import { LOLGRAM_SESSION_LIFETIME_MS } from '@tapgram/shared';
import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../src/features/auth';
import { LEGACY_KEYS, SESSION_KEY } from '../../src/features/auth/session-storage';
import { makeSession, makeUser, meAnswer } from '../lolgram/builders';
import { deferred, json, noContent, stubFetchForEachTest } from '../lolgram/fetch-stub';
import { renderWithApp } from '../lolgram/render';

function Probe() {
  const auth = useAuth();
  const [error, setError] = useState('');
  return (
    <div>
      <p data-testid="who">{auth.state.isAuthenticated ? auth.state.user?.username : 'nobody'}</p>
      <p data-testid="method">{auth.state.authMethod ?? 'none'}</p>
      <p data-testid="error">{error}</p>
      <button
        onClick={() =>
          auth.login(' alice ', 'secret-pass').catch((e: Error) => setError(e.message))
        }
      >
        login
      </button>
      <button onClick={() => void auth.logout()}>logout</button>
    </div>
  );
}

const who = () => screen.getByTestId('who').textContent;
const storedSession = () => localStorage.getItem(SESSION_KEY);

const api = stubFetchForEachTest();

describe('LOLGram auth', () => {
  it('creates the account with the same body when signing in fails', async () => {
    const alice = makeUser({ username: 'alice' });
    api
      .on('POST', '/api/lolgram/users/login', () =>
        json({ error: 'Invalid username or password' }, 401),
      )
      .on('POST', '/api/lolgram/users/create', () => json(alice, 201));
    renderWithApp(<Probe />);

    act(() => screen.getByText('login').click());

    await waitFor(() => expect(who()).toBe('alice'));
    expect(screen.getByTestId('method').textContent).toBe('password');
    const [create] = api.calls('POST', '/api/lolgram/users/create');
    expect(await create.json()).toEqual({ username: 'alice', password: 'secret-pass' });
    expect(JSON.parse(storedSession() ?? '{}')).toMatchObject({
      id: alice.id,
      authMethod: 'password',
    });
  });

  it('signs in without creating when the login answers OK', async () => {
    api.on('POST', '/api/lolgram/users/login', () => json(makeUser({ username: 'alice' })));
    renderWithApp(<Probe />);

    act(() => screen.getByText('login').click());

    await waitFor(() => expect(who()).toBe('alice'));
    expect(api.calls('POST', '/api/lolgram/users/create')).toHaveLength(0);
  });

  it('says why the sign-in failed when the name exists, instead of "Username already taken"', async () => {
    api
      .on('POST', '/api/lolgram/users/login', () =>
        json({ error: 'Invalid username or password' }, 401),
      )
      .on('POST', '/api/lolgram/users/create', () =>
        json({ error: 'Username already taken' }, 409),
      );
    renderWithApp(<Probe />);

    act(() => screen.getByText('login').click());

    await waitFor(() =>
      expect(screen.getByTestId('error').textContent).toBe('Invalid username or password'),
    );
    expect(who()).toBe('nobody');
    expect(storedSession()).toBeNull();
  });

  it("surfaces the create call's server message when a new account is refused", async () => {
    api
      .on('POST', '/api/lolgram/users/login', () =>
        json({ error: 'Invalid username or password' }, 401),
      )
      .on('POST', '/api/lolgram/users/create', () =>
        json({ error: 'Password must be at least 8 characters long' }, 400),
      );
    renderWithApp(<Probe />);

    act(() => screen.getByText('login').click());

    await waitFor(() =>
      expect(screen.getByTestId('error').textContent).toBe(
        'Password must be at least 8 characters long',
      ),
    );
    expect(who()).toBe('nobody');
  });

  it('says "Failed to create account" when the create call never reaches the server', async () => {
    api
      .on('POST', '/api/lolgram/users/login', () =>
        Promise.reject(new TypeError('Failed to fetch')),
      )
      .on('POST', '/api/lolgram/users/create', () =>
        Promise.reject(new TypeError('Failed to fetch')),
      );
    renderWithApp(<Probe />);

    act(() => screen.getByText('login').click());

    await waitFor(() =>
      expect(screen.getByTestId('error').textContent).toBe('Failed to create account'),
    );
  });

  it('clears a stored session older than 7 days without asking the server', () => {
    const alice = makeUser();
    const expired = makeSession(alice, { timestamp: Date.now() - LOLGRAM_SESSION_LIFETIME_MS - 1 });
    localStorage.setItem(SESSION_KEY, JSON.stringify(expired));
    renderWithApp(<Probe />);

    expect(who()).toBe('nobody');
    expect(storedSession()).toBeNull();
    expect(api.calls('GET', '/api/lolgram/users/me')).toHaveLength(0);
  });

  it('clears an unparsable stored session', () => {
    localStorage.setItem(SESSION_KEY, '{not json');
    renderWithApp(<Probe />);

    expect(who()).toBe('nobody');
    expect(storedSession()).toBeNull();
  });

  it('clears the session when /me answers 401', async () => {
    const alice = makeUser({ username: 'alice' });
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession(alice)));
    api.on('GET', '/api/lolgram/users/me', () => json({ error: 'Not signed in' }, 401));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWithApp(<Probe />);

    expect(who()).toBe('alice');
    await waitFor(() => expect(who()).toBe('nobody'));
    expect(storedSession()).toBeNull();
  });

  it('keeps a session that /me confirms', async () => {
    const alice = makeUser({ username: 'alice', bio: 'from the server' });
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession(alice)));
    api.on('GET', '/api/lolgram/users/me', () => json(meAnswer(alice)));
    renderWithApp(<Probe />);

    await waitFor(() => expect(api.calls('GET', '/api/lolgram/users/me')).toHaveLength(1));
    await waitFor(() => expect(JSON.parse(storedSession() ?? '{}').bio).toBe('from the server'));
    expect(who()).toBe('alice');
  });

  it('follows a sign-out and a sign-in made in another tab', async () => {
    const alice = makeUser({ username: 'alice' });
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession(alice)));
    api.on('GET', '/api/lolgram/users/me', () => json(meAnswer(alice)));
    renderWithApp(<Probe />);
    await waitFor(() => expect(api.calls('GET', '/api/lolgram/users/me')).toHaveLength(1));

    localStorage.removeItem(SESSION_KEY);
    act(() => window.dispatchEvent(new StorageEvent('storage', { key: SESSION_KEY })));
    await waitFor(() => expect(who()).toBe('nobody'));

    const bob = makeUser({
      username: 'bob',
      walletAddress: 'So11111111111111111111111111111111111111112',
    });
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession(bob, { authMethod: 'wallet' })));
    act(() => window.dispatchEvent(new StorageEvent('storage', { key: SESSION_KEY })));
    await waitFor(() => expect(who()).toBe('bob'));
    expect(screen.getByTestId('method').textContent).toBe('wallet');
    expect(api.calls('GET', '/api/lolgram/users/me')).toHaveLength(1);
  });

  it('does not store again a session that a sign-out replaced while GET /me was answered', async () => {
    const alice = makeUser({ username: 'alice' });
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession(alice)));
    const me = deferred();
    api
      .on('GET', '/api/lolgram/users/me', () => me.promise)
      .on('POST', '/api/lolgram/users/logout', noContent);
    renderWithApp(<Probe />);
    await waitFor(() => expect(api.calls('GET', '/api/lolgram/users/me')).toHaveLength(1));

    act(() => screen.getByText('logout').click());
    await waitFor(() => expect(storedSession()).toBeNull());
    // The answer had arrived as the sign-out was made: the page reads it after.
    const answer = json(meAnswer(alice));
    me.settle(answer);
    await waitFor(() => expect(answer.bodyUsed).toBe(true));
    // Once every step queued behind the read has run.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));

    expect(storedSession()).toBeNull();
    expect(who()).toBe('nobody');
  });

  it('logs out: calls the server and removes the session and the legacy keys', async () => {
    const alice = makeUser({ username: 'alice' });
    localStorage.setItem(SESSION_KEY, JSON.stringify(makeSession(alice)));
    for (const key of LEGACY_KEYS) localStorage.setItem(key, 'old');
    api
      .on('GET', '/api/lolgram/users/me', () => json(meAnswer(alice)))
      .on('POST', '/api/lolgram/users/logout', noContent);
    renderWithApp(<Probe />);

    act(() => screen.getByText('logout').click());

    await waitFor(() => expect(who()).toBe('nobody'));
    expect(api.calls('POST', '/api/lolgram/users/logout')).toHaveLength(1);
    expect(storedSession()).toBeNull();
    for (const key of LEGACY_KEYS) expect(localStorage.getItem(key)).toBeNull();
  });
});
