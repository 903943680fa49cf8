import { z } from 'zod';
import { idSchema } from './game';
import { usernameSchema } from './validation';

/**
 * Friends, invitations and the referral bonus (docs/GAME.md, Friends and invitations). The server
 * applies these rules; the screens show what it answers.
 */

/** The letters of an invite code: lower case, without look-alikes (0/o, 1/l/i). */
export const INVITE_CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const INVITE_CODE_LENGTH = 8;
const INVITE_CODE_PATTERN = new RegExp(`^[${INVITE_CODE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

/** Whether a string is shaped as an invite code (any case: codes are stored in lower case). */
export function isInviteCode(value: string): boolean {
  return INVITE_CODE_PATTERN.test(value.toLowerCase());
}

/** The path of a player's invite link. */
export function invitePath(code: string): string {
  return `/play?ref=${encodeURIComponent(code)}`;
}

/** The most friends a player has; an invitation beyond it is still counted, without a friendship. */
export const MAX_FRIENDS = 200;
/** The most friend requests a player has sent that wait for an answer. */
export const MAX_PENDING_REQUESTS = 20;
/** A player can be counted as invited only within this long of their creation. */
export const INVITE_ACCEPT_WINDOW_MINUTES = 10;
/** The invitations and bonuses a player is shown, newest first. */
export const INVITATIONS_SHOWN = 50;
export const BONUS_HISTORY_SHOWN = 20;

/** When a referral bonus is paid, and how much (REFERRAL_* settings). */
export interface ReferralRules {
  /** Taps the invited player makes before the bonus is paid (REFERRAL_TAPS). */
  taps: number;
  /** Distinct UTC days on which they tapped (REFERRAL_DAYS). */
  days: number;
  /** Bonuses an inviter is paid per UTC day; beyond it they wait for a later day (REFERRAL_DAILY_CAP). */
  dailyCap: number;
  /** Points each side is paid (REFERRAL_BONUS). */
  bonus: number;
}

export const DEFAULT_REFERRAL_RULES: ReferralRules = {
  taps: 1000,
  days: 2,
  dailyCap: 5,
  bonus: 5000,
};

/** Whether an invited player has played enough for the bonus. */
export function referralReached(progress: { taps: number; days: number }, rules: ReferralRules) {
  return progress.taps >= rules.taps && progress.days >= rules.days;
}

export const friendMessages = {
  notFound: 'No player has this name',
  self: 'You cannot add yourself as a friend',
  already: 'You are friends already',
  requested: 'You have asked this player already: they have to accept',
  noRequest: 'This player has not asked to be your friend',
  notFriends: 'You are not friends',
  tooManyFriends: `A player has at most ${MAX_FRIENDS} friends`,
  theirFriendsFull: `This player has ${MAX_FRIENDS} friends already`,
  tooManyRequests: `At most ${MAX_PENDING_REQUESTS} friend requests can wait for an answer: cancel one first`,
} as const;

/** Why an unpaid referral bonus was cancelled, as the player and the audit read it. */
export const referralCancelReasons = {
  inviterFrozen: (reason: string) => `The inviter was frozen: ${reason}`,
  inviteeFrozen: (reason: string) => `The invited player was frozen: ${reason}`,
} as const;

/** Why an unfreeze restored a bonus a freeze cancelled, as the audit records it. */
export const referralRestoreReasons = {
  inviterUnfrozen: (reason: string) => `The inviter was unfrozen: ${reason}`,
  inviteeUnfrozen: (reason: string) => `The invited player was unfrozen: ${reason}`,
} as const;

export const referralWaitingReason =
  "The inviter's bonuses for today are all paid: this one is paid on a later day";

/** Where a player stands in a friendship. */
export const FRIEND_RELATIONS = ['me', 'friend', 'inviter'] as const;

/** A row of the friends board: ranked by the running season's points. */
export const friendsBoardRowSchema = z.object({
  id: z.string(),
  username: z.string(),
  points: z.number().int(),
  rank: z.number().int().positive(),
  relation: z.enum(FRIEND_RELATIONS),
});
export type FriendsBoardRow = z.infer<typeof friendsBoardRowSchema>;

/** GET /api/users/:id/friends/board (the player's own browser only). */
export const friendsBoardSchema = z.object({
  season: z.number().int().positive(),
  rows: friendsBoardRowSchema.array(),
});
export type FriendsBoard = z.infer<typeof friendsBoardSchema>;

export const friendSchema = z.object({ id: z.string(), username: z.string() });
export type Friend = z.infer<typeof friendSchema>;

/** GET /api/users/:id/friends: friends, who invited them, requests both ways. */
export const friendsSchema = z.object({
  friends: friendSchema.array(),
  inviter: friendSchema.nullable(),
  incoming: friendSchema.array(),
  outgoing: friendSchema.array(),
});
export type Friends = z.infer<typeof friendsSchema>;

/** POST /api/friends/requests: ask a player by name (accepts theirs when they asked first). */
export const friendRequestBodySchema = z.object({ userId: idSchema, username: usernameSchema });
export type FriendRequestBody = z.infer<typeof friendRequestBodySchema>;

/** POST /api/friends/requests/:id/accept, DELETE /api/friends/requests/:id, DELETE /api/friends/:id. */
export const friendActionBodySchema = z.object({ userId: idSchema });
export type FriendActionBody = z.infer<typeof friendActionBodySchema>;

/** The answer to a friend request: friends at once (they had asked), or asked. */
export const friendRequestAnswerSchema = z.object({
  status: z.enum(['requested', 'friends']),
  friend: friendSchema,
});
export type FriendRequestAnswer = z.infer<typeof friendRequestAnswerSchema>;

/** GET /api/users/:id/invite: the player's code and the path of their link. */
export const inviteSchema = z.object({ code: z.string(), path: z.string() });
export type Invite = z.infer<typeof inviteSchema>;

/**
 * An invitation as its inviter sees it: joined (no taps yet), playing (progress toward the bonus),
 * waiting (reached, beyond the inviter's daily cap), paid, or cancelled with its reason.
 */
export const INVITATION_STATES = ['joined', 'playing', 'waiting', 'paid', 'cancelled'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export const invitationSchema = z.object({
  id: z.string(),
  invitee: friendSchema,
  joinedAt: z.string(),
  state: z.enum(INVITATION_STATES),
  taps: z.number().int().nonnegative(),
  days: z.number().int().nonnegative(),
  paidAt: z.string().nullable(),
  reason: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** GET /api/users/:id/invitations: the rules, and the player's invitations, newest first. */
export const invitationsSchema = z.object({
  rules: z.object({
    taps: z.number().int(),
    days: z.number().int(),
    dailyCap: z.number().int(),
    bonus: z.number().int(),
  }),
  invitations: invitationSchema.array(),
});
export type Invitations = z.infer<typeof invitationsSchema>;

/** A bonus in the player's history: points added, or withheld / cancelled with the reason. */
export const BONUS_KINDS = ['streak', 'referral'] as const;
export const bonusEntrySchema = z.object({
  kind: z.enum(BONUS_KINDS),
  at: z.string(),
  points: z.number().int().nonnegative(),
  state: z.enum(['added', 'waiting', 'cancelled']),
  /** Why: the streak's length, who joined, or why it waits or was cancelled. */
  reason: z.string(),
});
export type BonusEntry = z.infer<typeof bonusEntrySchema>;

/** GET /api/users/:id/bonuses. */
export const bonusHistorySchema = bonusEntrySchema.array();
