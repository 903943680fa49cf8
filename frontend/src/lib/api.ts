/** The data layer of spec section 7: every call sends credentials; errors read "<status>: <body>". */

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = (await res.text()) || res.statusText;
    throw new Error(`${res.status}: ${text}`);
  }
}

export async function apiRequest(method: string, url: string, data?: unknown): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data === undefined ? {} : { 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** True for the error of a call the server refused because nobody is signed in. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('401: ');
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** The default read: GET the path made by joining the query key with "/". */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }) {
  return async ({ queryKey }: { queryKey: readonly unknown[] }): Promise<T | null> => {
    const res = await fetch(queryKey.join('/'), { credentials: 'include' });
    if (on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/** The message a person should read: the server's `{error}` when there is one. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return '';
  const match = /^\d{3}: ([\s\S]*)$/.exec(error.message);
  if (!match) return error.message;
  try {
    const body = JSON.parse(match[1]) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not JSON: the text itself is the message.
  }
  return match[1];
}
