import { z } from 'zod';
import { signInProofSchema } from './lolgram';
import { newPasswordSchema, text } from './validation';

/** The texts of the account settings, as the screen shows them and the API answers them. */
export const accountMessages = {
  wrongPassword: 'The current password is not right',
  currentPasswordRequired: 'Enter your current password',
  passwordUnchanged: 'The new password must differ from the current one',
  lastSignInMethod:
    'This is the only way to sign in to this account: set a password or link a wallet first',
  walletNameKept:
    'This account is named after its wallet: choose another username in Edit Profile before unlinking it',
  walletAlreadyLinked: 'This account already has a wallet: unlink it first',
  walletTakenElsewhere: 'This wallet already belongs to another account',
  walletNotLinked: 'This account has no wallet to unlink',
  wrongWallet: 'Sign with the wallet linked to this account',
  confirmWith: 'Confirm with your password or a signature of your wallet',
  usernameUnavailable: 'This username is not available',
  adminKept: 'An admin account cannot be deleted: take its admin role away first',
} as const;

/** GET /api/lolgram/users/me/settings: how the signed-in user can sign in, and their other devices. */
export const accountSettingsSchema = z.object({
  hasPassword: z.boolean(),
  walletAddress: z.string().nullable(),
  /** Sessions of this user signed in elsewhere (other browsers or devices), still valid. */
  otherSessions: z.number().int(),
});
export type AccountSettings = z.infer<typeof accountSettingsSchema>;

/**
 * PUT /api/lolgram/users/me/password: a new password. An account with a password sends its current
 * one; a wallet-only account proves its wallet instead (a fresh signature, as at sign-in).
 */
export const changePasswordBodySchema = z.object({
  currentPassword: text().min(1, accountMessages.currentPasswordRequired).optional(),
  proof: signInProofSchema.optional(),
  newPassword: newPasswordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

/** POST /api/lolgram/users/me/wallet: links the wallet that signed the server's request. */
export const linkWalletBodySchema = z.object({ proof: signInProofSchema });
export type LinkWalletBody = z.infer<typeof linkWalletBodySchema>;

/**
 * POST /api/lolgram/users/me/delete: the account's password, or for an account without one a
 * signature of its wallet.
 */
export const deleteAccountBodySchema = z
  .object({
    password: text().min(1, accountMessages.confirmWith).optional(),
    proof: signInProofSchema.optional(),
  })
  .refine((body) => body.password !== undefined || body.proof !== undefined, {
    message: accountMessages.confirmWith,
  });
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

/** The answer to POST /api/lolgram/users/me/sessions/end-others. */
export const endedSessionsSchema = z.object({ ended: z.number().int() });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;
