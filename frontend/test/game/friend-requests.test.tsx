// @vitest-environment happy-dom
import { friendMessages, messages, type Friend } from '@tapgram/shared';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FriendRequests } from '../../src/features/game/friends/FriendRequests';
import { createQueryClient } from '../../src/lib/query-client';
import { deferred } from './builders';
import { GAME_CONFIG, stubFriendsApi, type FriendsApi } from './friends-api';
import { json } from './game-api';

const ME = '00000000-0000-4000-8000-000000000001';
const amy: Friend = { id: '00000000-0000-4000-8000-00000000000a', username: 'amy' };
const bob: Friend = { id: '00000000-0000-4000-8000-00000000000b', username: 'bob' };
const cid: Friend = { id: '00000000-0000-4000-8000-00000000000c', username: 'cid' };
const dora: Friend = { id: '00000000-0000-4000-8000-00000000000d', username: 'dora' };

/** Amy asked the player, the player asked Bob, and Cid is a friend; Dora exists, unasked. */
function server(over: Partial<FriendsApi> = {}): FriendsApi {
  return {
    userId: ME,
    players: [amy, bob, cid, dora],
    friends: { friends: [cid], inviter: null, incoming: [amy], outgoing: [bob] },
    board: { season: 3, rows: [] },
    invite: { code: 'abcd2345', path: '/play?ref=abcd2345' },
    invitations: { rules: { taps: 1000, days: 2, dailyCap: 5, bonus: 5000 }, invitations: [] },
    bonuses: [],
    config: GAME_CONFIG,
    ...over,
  };
}

function renderRequests() {
  const client = createQueryClient();
  render(
    <QueryClientProvider client={client}>
      <FriendRequests userId={ME} />
    </QueryClientProvider>,
  );
  return {
    input: screen.getByRole('textbox', { name: 'Their username' }),
    ask: screen.getByRole('button', { name: 'Ask' }),
    status: screen.getByRole('status'),
    /** Whether the friends have been read (answered or refused). */
    friendsRead: () => client.getQueryState(['/api/users', ME, 'friends'])?.status,
  };
}

/** The names of the player's friends in the (folded) list. */
const friendNames = () =>
  within(screen.getByTestId('friends-list'))
    .getAllByRole('listitem')
    .map((item) => item.firstChild?.textContent);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('friend requests on the friends card', () => {
  it('shows only the form while the friends load, then the requests both ways and the friends', async () => {
    const friends = deferred<Response>();
    const api = server({ override: { [`GET /api/users/${ME}/friends`]: () => friends.promise } });
    stubFriendsApi(api);
    renderRequests();
    expect(screen.queryByRole('list')).toBeNull();

    friends.resolve(json(api.friends));
    const incoming = await screen.findByRole('list', { name: 'Friend requests for you' });
    expect(within(incoming).getByRole('listitem').textContent).toBe(
      'amy asks to be friendsAcceptDecline',
    );
    const outgoing = screen.getByRole('list', { name: 'Your friend requests' });
    expect(within(outgoing).getByRole('listitem').textContent).toBe('Waiting for bobCancel');
    expect(screen.getByText('Your friends (1)')).toBeTruthy();
    expect(friendNames()).toEqual(['cid']);
    expect(screen.getByRole('button', { name: 'Remove cid' })).toBeTruthy();
  });

  it('shows none of the lists to a player with no friends and no requests', async () => {
    stubFriendsApi(server({ friends: { friends: [], inviter: null, incoming: [], outgoing: [] } }));
    const { friendsRead } = renderRequests();
    await expect.poll(friendsRead).toBe('success');
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByText(/Your friends/)).toBeNull();
  });

  it('refuses a name no player can have, without a call, and says why next to the field', async () => {
    const api = stubFriendsApi(server());
    const { input, ask, status } = renderRequests();
    await userEvent.type(input, 'ab');
    await userEvent.click(ask);
    expect(status.textContent).toBe(messages.usernameTooShort);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(status.id);

    await userEvent.type(input, ' c!');
    await userEvent.keyboard('{Enter}');
    expect(status.textContent).toBe(messages.usernameCharacters);
    expect(api.calls('POST', '/api/friends/requests')).toBe(0);
  });

  it('asks a player by the trimmed name, then says they have to accept and lists them as waiting', async () => {
    const answer = deferred<Response>();
    const api = server({ override: { 'POST /api/friends/requests': () => answer.promise } });
    const calls = stubFriendsApi(api);
    const { input, ask, status } = renderRequests();
    await screen.findByRole('list', { name: 'Your friend requests' });
    // A refused name first: the next ask clears its message.
    await userEvent.type(input, 'x');
    await userEvent.click(ask);
    expect(status.textContent).toBe(messages.usernameTooShort);

    await userEvent.clear(input);
    await userEvent.type(input, '  dora ');
    await userEvent.click(ask);
    expect(calls.bodies('POST', '/api/friends/requests')).toEqual([
      { userId: ME, username: 'dora' },
    ]);
    // One request at a time: Ask waits for the answer.
    expect(ask).toBeDisabled();
    expect(status.textContent).toBe('');
    expect(input.hasAttribute('aria-invalid')).toBe(false);

    api.friends = { ...api.friends, outgoing: [bob, dora] };
    answer.resolve(json({ status: 'requested', friend: dora }));
    await expect.poll(() => status.textContent).toBe('Asked dora: they have to accept');
    expect(input).toHaveValue('');
    expect(ask).toBeEnabled();
    // The friends are read again: Dora waits beside Bob.
    const outgoing = screen.getByRole('list', { name: 'Your friend requests' });
    await expect
      .poll(() =>
        within(outgoing)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      )
      .toEqual(['Waiting for bobCancel', 'Waiting for doraCancel']);
  });

  it('makes friends at once with a player who had asked first', async () => {
    const calls = stubFriendsApi(server());
    const { input, status } = renderRequests();
    await screen.findByRole('list', { name: 'Friend requests for you' });
    await userEvent.type(input, 'amy{Enter}');
    await expect.poll(() => status.textContent).toBe('You and amy are friends');
    await expect.poll(friendNames).toEqual(['cid', 'amy']);
    expect(screen.queryByRole('list', { name: 'Friend requests for you' })).toBeNull();
    expect(calls.calls('GET', `/api/users/${ME}/friends`)).toBe(2);
  });

  it("shows the server's refusal of a request in its words and keeps the name to correct", async () => {
    stubFriendsApi(server());
    const { input, ask, status } = renderRequests();
    await userEvent.type(input, 'nobody_here');
    await userEvent.click(ask);
    await expect.poll(() => status.textContent).toBe(friendMessages.notFound);
    expect(input).toHaveValue('nobody_here');
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it("accepts a player's request: it becomes a friendship", async () => {
    const calls = stubFriendsApi(server());
    renderRequests();
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(calls.bodies('POST', `/api/friends/requests/${amy.id}/accept`)).toEqual([
      { userId: ME },
    ]);
    await expect.poll(() => screen.queryByText('Your friends (2)')).not.toBeNull();
    expect(friendNames()).toEqual(['cid', 'amy']);
    expect(screen.queryByText('amy asks to be friends')).toBeNull();
  });

  it('declines a request for the player and cancels one of theirs, each by the other’s id', async () => {
    const calls = stubFriendsApi(server());
    renderRequests();
    await userEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    await expect.poll(() => screen.queryByText('amy asks to be friends')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect.poll(() => screen.queryByText('Waiting for bob')).toBeNull();
    expect(calls.bodies('DELETE', `/api/friends/requests/${amy.id}`)).toEqual([{ userId: ME }]);
    expect(calls.bodies('DELETE', `/api/friends/requests/${bob.id}`)).toEqual([{ userId: ME }]);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('removes a friend', async () => {
    const calls = stubFriendsApi(server());
    renderRequests();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove cid' }));
    expect(calls.bodies('DELETE', `/api/friends/${cid.id}`)).toEqual([{ userId: ME }]);
    await expect.poll(() => screen.queryByText(/Your friends/)).toBeNull();
  });

  it("shows the server's refusal of an answer to a request, and the lists as they are", async () => {
    // Amy took her request back in the meantime: the server has none to accept.
    const api = server();
    api.override = {
      [`POST /api/friends/requests/${amy.id}/accept`]: () =>
        json({ error: friendMessages.noRequest }, 409),
    };
    stubFriendsApi(api);
    const { status } = renderRequests();
    api.friends = { ...api.friends, incoming: [] };
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    await expect.poll(() => status.textContent).toBe(friendMessages.noRequest);
    // Read again after the refusal: her request is gone.
    await expect.poll(() => screen.queryByText('amy asks to be friends')).toBeNull();
    expect(screen.getByText('Your friends (1)')).toBeTruthy();
  });

  it('says what the latest action came to: a refusal after an ask, and nothing once the next one succeeds', async () => {
    const api = server();
    api.override = {
      [`DELETE /api/friends/requests/${bob.id}`]: () =>
        json({ error: friendMessages.noRequest }, 409),
    };
    stubFriendsApi(api);
    const { input, status } = renderRequests();
    await screen.findByRole('list', { name: 'Your friend requests' });
    await userEvent.type(input, 'dora{Enter}');
    await expect.poll(() => status.textContent).toBe('Asked dora: they have to accept');

    // Bob's request is refused: that is the news now, not the ask before it.
    const [cancelBob] = screen.getAllByRole('button', { name: 'Cancel' });
    expect(cancelBob.closest('li')?.textContent).toBe('Waiting for bobCancel');
    await userEvent.click(cancelBob);
    await expect.poll(() => status.textContent).toBe(friendMessages.noRequest);
    expect(input.hasAttribute('aria-invalid')).toBe(false);

    // Accepting Amy then succeeds: the refusal of another action no longer stands.
    await userEvent.click(screen.getByRole('button', { name: 'Accept' }));
    await expect.poll(() => screen.queryByText('amy asks to be friends')).toBeNull();
    expect(status.textContent).toBe('');
  });
});
