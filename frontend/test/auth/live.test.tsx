// @vitest-environment happy-dom
import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth, useLiveConnect, useLiveEvent } from '../../src/features/auth';
import { LIVE_RETRY_FIRST_MS } from '../../src/features/auth/live-client';
import { makeUser, postMoved } from '../lolgram/builders';
import { json, noContent, stubFetchForEachTest } from '../lolgram/fetch-stub';
import { renderWithApp, signIn } from '../lolgram/render';
import { fakeLiveSockets } from './fake-live';

const ME = '/api/lolgram/users/me';

/** A screen that follows the live channel: the posts pushed to it, and its reconnections. */
function Follower() {
  const auth = useAuth();
  const [pushed, setPushed] = useState<string[]>([]);
  const [connects, setConnects] = useState(0);
  useLiveEvent('moderation', ({ contentId, status }) =>
    setPushed((seen) => [...seen, `${contentId} ${status}`]),
  );
  useLiveConnect(() => setConnects((n) => n + 1));
  return (
    <div>
      <p data-testid="who">{auth.state.user?.username ?? 'nobody'}</p>
      <p data-testid="pushed">{pushed.join(', ')}</p>
      <p data-testid="connects">{connects}</p>
      <button onClick={() => void auth.logout()}>logout</button>
    </div>
  );
}

const text = (id: string) => screen.getByTestId(id).textContent;
const api = stubFetchForEachTest();

afterEach(() => {
  vi.useRealTimers();
});

describe('the live channel of the signed-in user', () => {
  it('opens only while someone is signed in, and closes at sign-out', async () => {
    const sockets = fakeLiveSockets();
    const view = renderWithApp(<Follower />);
    expect(text('who')).toBe('nobody');
    expect(sockets).toHaveLength(0);
    view.unmount();

    signIn(api, makeUser({ username: 'alice' }));
    api.on('POST', '/api/lolgram/users/logout', () => noContent());
    renderWithApp(<Follower />);
    await waitFor(() => expect(sockets[0]?.connects).toBe(1));
    act(() => sockets[0].open());
    act(() => screen.getByText('logout').click());
    await waitFor(() => expect(text('who')).toBe('nobody'));
    expect(sockets[0].disconnects).toBe(1);
    expect(sockets).toHaveLength(1);
  });

  it('hands each push to the screens following it, and reads again at every reconnection', async () => {
    const sockets = fakeLiveSockets();
    signIn(api, makeUser());
    const view = renderWithApp(<Follower />);
    await waitFor(() => expect(sockets[0]?.connects).toBe(1));
    act(() => sockets[0].open());
    expect(text('connects')).toBe('1');
    act(() => sockets[0].push('moderation', postMoved('p1', 'checking', 'held')));
    act(() => sockets[0].open());
    act(() => sockets[0].push('moderation', postMoved('p1', 'held', 'visible')));
    expect(text('pushed')).toBe('p1 held, p1 visible');
    expect(text('connects')).toBe('2');
    view.unmount();
    expect(sockets[0].disconnects).toBe(1);
  });

  it('asks the server about the session after a refusal, and tries again later and later', async () => {
    vi.useFakeTimers();
    const sockets = fakeLiveSockets();
    signIn(api, makeUser({ username: 'alice' }));
    renderWithApp(<Follower />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    const socket = sockets[0];
    expect(socket.connects).toBe(1);
    const asked = () => api.calls('GET', ME).length;
    const before = asked();

    act(() => socket.refuse());
    await act(() => vi.advanceTimersByTimeAsync(LIVE_RETRY_FIRST_MS - 1));
    expect(asked()).toBe(before + 1);
    expect(socket.connects).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(socket.connects).toBe(2);

    // Refused again: the wait doubles.
    act(() => socket.refuse());
    await act(() => vi.advanceTimersByTimeAsync(2 * LIVE_RETRY_FIRST_MS - 1));
    expect(socket.connects).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(socket.connects).toBe(3);

    // A connection resets it; a socket the server ends is asked again the same way.
    act(() => socket.open());
    act(() => socket.end());
    await act(() => vi.advanceTimersByTimeAsync(LIVE_RETRY_FIRST_MS));
    expect(socket.connects).toBe(4);
    expect(text('who')).toBe('alice');
  });

  it('stops trying when the server says the session ended', async () => {
    vi.useFakeTimers();
    const sockets = fakeLiveSockets();
    signIn(api, makeUser({ username: 'alice' }));
    renderWithApp(<Follower />);
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(text('who')).toBe('alice');
    const socket = sockets[0];
    api.on('GET', ME, () => json({ error: 'Not signed in' }, 401));

    act(() => socket.end());
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(text('who')).toBe('nobody');
    await act(() => vi.advanceTimersByTimeAsync(10 * LIVE_RETRY_FIRST_MS));
    expect(socket.connects).toBe(1);
    expect(socket.disconnects).toBe(1);
  });
});
