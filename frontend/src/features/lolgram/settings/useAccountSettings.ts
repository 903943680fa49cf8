import type {
  AccountSettings,
  ChangePasswordBody,
  DeleteAccountBody,
  EndedSessions,
  SignInProof,
} from '@tapgram/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getQueryFn } from '../../../lib/api';

const ME = '/api/lolgram/users/me';
export const settingsKey = [`${ME}/settings`];

/** How the signed-in user signs in, and how many other devices are signed in. */
export function useAccountSettings() {
  return useQuery<AccountSettings | null>({
    queryKey: settingsKey,
    queryFn: getQueryFn<AccountSettings>({ on401: 'throw' }),
    // Read afresh each time Settings opens: another device may have signed in meanwhile.
    refetchOnMount: 'always',
  });
}

/** The settings' calls; each answer that changes the settings refreshes them. */
export function useAccountActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: settingsKey });
  const json = async <T>(res: Promise<Response>) => (await (await res).json()) as T;
  return {
    changePassword: useMutation({
      mutationFn: (body: ChangePasswordBody) =>
        json<EndedSessions>(apiRequest('PUT', `${ME}/password`, body)),
      onSuccess: refresh,
    }),
    endOthers: useMutation({
      mutationFn: () => json<EndedSessions>(apiRequest('POST', `${ME}/sessions/end-others`)),
      onSuccess: refresh,
    }),
    linkWallet: useMutation({
      mutationFn: (proof: SignInProof) =>
        json<AccountSettings>(apiRequest('POST', `${ME}/wallet`, { proof })),
      onSuccess: (settings) => queryClient.setQueryData(settingsKey, settings),
    }),
    unlinkWallet: useMutation({
      mutationFn: () => json<AccountSettings>(apiRequest('DELETE', `${ME}/wallet`)),
      onSuccess: (settings) => queryClient.setQueryData(settingsKey, settings),
    }),
    deleteAccount: useMutation({
      mutationFn: async (body: DeleteAccountBody) => {
        await apiRequest('POST', `${ME}/delete`, body);
      },
    }),
  };
}
