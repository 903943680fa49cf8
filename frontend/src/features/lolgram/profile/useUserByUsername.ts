import type { LolgramUser } from '@tapgram/shared';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api';
import { lolgramKeys } from '../lib/query-keys';

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function useUserByUsername(username: string | undefined) {
  const query = useQuery<LolgramUser>({
    queryKey: lolgramKeys.userByUsername(username ?? ''),
    enabled: Boolean(username),
  });
  return { ...query, notFound: isNotFound(query.error) };
}
