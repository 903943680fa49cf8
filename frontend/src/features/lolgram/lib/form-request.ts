import { throwIfResNotOk } from '../../../lib/api';

/** A multipart call; like apiRequest it sends credentials and throws an ApiError on refusal. */
export async function sendForm(method: string, url: string, form: FormData): Promise<Response> {
  const res = await fetch(url, { method, body: form, credentials: 'include' });
  await throwIfResNotOk(res);
  return res;
}
