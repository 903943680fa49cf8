// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/App';
import { Providers } from '../../src/Providers';
import { dismiss, toast } from '../../src/hooks/use-toast';
import { ApiError, apiRequest, errorMessage, getQueryFn } from '../../src/lib/api';
import { checkedAnswer, notFromServer } from '../api-answers';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  act(() => dismiss());
});

const renderAt = (path: string) =>
  render(
    <Providers>
      <MemoryRouter initialEntries={[path]}>
        <App />
      </MemoryRouter>
    </Providers>,
  );

describe('routes', () => {
  it('shows the 404 page on an unknown path', () => {
    renderAt('/no/such/page');
    expect(screen.getByRole('heading', { name: 'Page Not Found' })).toBeTruthy();
  });

  it('leads from the landing page to the game and to LOLGram', () => {
    renderAt('/');
    expect(screen.getByRole('link', { name: 'Play the game' }).getAttribute('href')).toBe('/play');
    expect(screen.getByRole('link', { name: 'Open LOLGram' }).getAttribute('href')).toBe(
      '/lolgram',
    );
  });
});

describe('the data layer', () => {
  it('sends credentials and JSON, and throws an ApiError with the status, body and message', async () => {
    const fetch = vi.fn(async () =>
      checkedAnswer(
        'POST',
        '/api/users',
        new Response('{"error":"Username already taken"}', { status: 409 }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const failure = await apiRequest('POST', '/api/users', { username: 'x' }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      status: 409,
      body: { error: 'Username already taken' },
      message: 'Username already taken',
    });
    expect(errorMessage(failure)).toBe('Username already taken');
    expect(fetch).toHaveBeenCalledWith('/api/users', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"username":"x"}',
      credentials: 'include',
    });
  });

  it('falls back to the status text for an empty body', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        notFromServer(new Response(null, { status: 503, statusText: 'Service Unavailable' })),
      ),
    );
    const failure = apiRequest('GET', '/api/x');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 503,
      body: '',
      message: 'Service Unavailable',
    });
  });

  it('GETs the query key joined with "/" and can answer null on 401', async () => {
    const fetch = vi.fn(async () =>
      notFromServer(new Response(null, { status: 401, statusText: 'Unauthorized' })),
    );
    vi.stubGlobal('fetch', fetch);
    const queryKey = ['/api/users', 'abc', 'rank'];
    expect(await getQueryFn({ on401: 'returnNull' })({ queryKey })).toBeNull();
    expect(fetch).toHaveBeenCalledWith('/api/users/abc/rank', { credentials: 'include' });
    await expect(getQueryFn({ on401: 'throw' })({ queryKey })).rejects.toMatchObject({
      status: 401,
      message: 'Unauthorized',
    });
  });
});

describe('toasts', () => {
  it('shows only the newest toast, destructive ones styled as such, in an F8 region', async () => {
    renderAt('/');
    act(() => {
      toast({ title: 'First', description: 'one' });
      toast({ title: 'Second', description: 'two', variant: 'destructive' });
    });
    expect(await screen.findByText('Second')).toBeTruthy();
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getByText('Second').closest('[data-variant]')?.getAttribute('data-variant')).toBe(
      'destructive',
    );
    expect(screen.getByRole('region').getAttribute('aria-label')).toContain('F8');
  });
});
