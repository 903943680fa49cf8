import type { LolgramUser, UpdateProfileBody } from '@tapgram/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api';
import { useAuth } from '../../auth';
import { lolgramKeys } from '../lib/query-keys';

export function useUpdateProfile(userId: string) {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: async (body: UpdateProfileBody) => {
      const res = await apiRequest('PUT', `/api/lolgram/users/${userId}`, body);
      return (await res.json()) as LolgramUser;
    },
    onSuccess: (user) => {
      updateUser(user);
      queryClient.setQueryData(lolgramKeys.userByUsername(user.username), user);
    },
  });
}
