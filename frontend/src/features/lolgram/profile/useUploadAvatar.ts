import type { AvatarAnswer } from '@tapgram/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../auth';
import { sendForm } from '../lib/form-request';
import { isPostsQuery, lolgramKeys } from '../lib/query-keys';

export function useUploadAvatar(userId: string) {
  const queryClient = useQueryClient();
  const { updateUser } = useAuth();
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('avatar', file);
      const res = await sendForm('PUT', `/api/lolgram/users/${userId}/avatar`, form);
      return ((await res.json()) as AvatarAnswer).user;
    },
    onSuccess: (user) => {
      updateUser(user);
      queryClient.setQueryData(lolgramKeys.userByUsername(user.username), user);
      void queryClient.invalidateQueries({ predicate: isPostsQuery });
    },
    onError: (error) => console.error('Avatar upload failed', error),
  });
}
