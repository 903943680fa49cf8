import type { ErrorBody } from '@tapgram/shared';

/**
 * The `{error}` text of an answer's body (the shared `errorBodySchema`), checked by hand: this
 * runs on every page, and the pages that need no schema load no schema library.
 */
function errorText(body: unknown): string | null {
  const error =
    typeof body === 'object' && body !== null ? (body as Partial<ErrorBody>).error : null;
  return typeof error === 'string' ? error : null;
}

/**
 * A call the server answered with an error status. `body` is the answer as JSON (the API's
 * `{error}`), or its text when it is not JSON (a proxy's page); the message is what a person
 * should read: the server's `{error}`, else that text, else the status text.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
    /** When the server says the call may be made again (its Retry-After), in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  /** The server's own `{error}` text, when the answer carries one. */
  get serverMessage(): string | null {
    return errorText(this.body) || null;
  }
}

/** Retry-After in seconds (the form the API sends), as milliseconds; undefined otherwise. */
function retryAfterMs(res: Response): number | undefined {
  const value = res.headers.get('Retry-After');
  return value !== null && /^\d+$/.test(value) ? Number(value) * 1000 : undefined;
}

async function apiError(res: Response): Promise<ApiError> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the text is the body.
  }
  const message = errorText(body) ?? (text || res.statusText);
  return new ApiError(res.status, body, message, retryAfterMs(res));
}

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (!res.ok) throw await apiError(res);
}

/** Every call sends the session cookie; a refusal throws an ApiError. */
export async function apiRequest(
  method: string,
  url: string,
  data?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const res = await fetch(url, {
    method,
    headers: data === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: data === undefined ? undefined : JSON.stringify(data),
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
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

/** The message a person should read, '' for something that is not an error. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : '';
}
