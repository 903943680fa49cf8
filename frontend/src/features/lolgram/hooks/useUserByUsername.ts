import type { LolgramUser } from '@tapgram/shared';
import { useQuery } from '@tanstack/react-query';
import { lolgramKeys } from './query-keys';

export function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('404:');
}

export function useUserByUsername(username: string | undefined) {
  const query = useQuery<LolgramUser>({
    queryKey: lolgramKeys.userByUsername(username ?? ''),
    enabled: Boolean(username),
  });
  return { ...query, notFound: isNotFound(query.error) };
}
