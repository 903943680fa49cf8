import { z } from 'zod';
import { commentPreviewSchema } from './comments';
import { AUTH_METHODS } from './stored-session';
import { FEED_LIMIT, USER_POSTS_PAGE } from './constants';
import {
  bioSchema,
  captionSchema,
  messages,
  newPasswordSchema,
  text,
  usernameSchema,
} from './validation';

export const lolgramUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  /** The avatar's WebP copies by width, as an `<img srcset>`; absent for avatars without copies. */
  avatarSrcset: z.string().optional(),
  bio: z.string().nullable(),
  followerCount: z.number().int(),
  followingCount: z.number().int(),
  postCount: z.number().int(),
  walletAddress: z.string().nullable(),
  isVerified: z.boolean(),
});
export type LolgramUser = z.infer<typeof lolgramUserSchema>;

/** GET /api/lolgram/users/me: the signed-in user, and whether they are an admin (only here). */
export const meAnswerSchema = lolgramUserSchema.extend({ isAdmin: z.boolean() });
export type MeAnswer = z.infer<typeof meAnswerSchema>;

/** The answer to PUT /api/lolgram/users/:id/avatar. */
export const avatarAnswerSchema = z.object({ user: lolgramUserSchema });
export type AvatarAnswer = z.infer<typeof avatarAnswerSchema>;

export const authMethodSchema = z.enum(AUTH_METHODS);

export const loginBodySchema = z.object({
  username: text().trim().min(1, messages.fillAllFields),
  password: text().min(1, messages.fillAllFields),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const createAccountBodySchema = z.object({
  username: usernameSchema,
  password: newPasswordSchema,
});
export type CreateAccountBody = z.infer<typeof createAccountBodySchema>;

export const updateProfileBodySchema = z.object({
  username: usernameSchema,
  bio: bioSchema.optional().default(''),
});
export type UpdateProfileBody = z.infer<typeof updateProfileBodySchema>;

export const locationSchema = z.object({
  name: text().trim().min(1).max(100),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type PostLocation = z.infer<typeof locationSchema>;

export const createPostFieldsSchema = z.object({
  caption: captionSchema,
  userId: text().min(1, messages.userNotFound),
  location: locationSchema.optional(),
});
export type CreatePostFields = z.infer<typeof createPostFieldsSchema>;

export const feedQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(FEED_LIMIT),
  /** Cursor: the `cursor` of the last post of the previous page. */
  before: text().max(200).optional(),
});

/**
 * GET /api/lolgram/posts/user/:userId?limit=30&before=<cursor>: a user's posts newest first, a page
 * at a time (pass the last post's `cursor` as `before`; a page shorter than `limit` is the last).
 */
export const userPostsQuerySchema = feedQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(50).default(USER_POSTS_PAGE),
});

export const postViewsBodySchema = z.object({
  postIds: z.array(z.string().uuid()).min(1).max(100),
});

export const postSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  userAvatar: z.string().nullable(),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  /**
   * The WebP copies made at upload of the image, its square thumbnail and the author's avatar,
   * each as an `<img srcset>` ("url 320w, url 640w, ..."), so that a screen downloads the size it
   * shows. Absent for images uploaded before copies were made.
   */
  imageSrcset: z.string().optional(),
  thumbnailSrcset: z.string().optional(),
  userAvatarSrcset: z.string().optional(),
  caption: z.string(),
  location: locationSchema.nullable(),
  lolCount: z.number().int(),
  isLiked: z.boolean(),
  /** Whether the viewer keeps it in their Saved grid (false for visitors). */
  isSaved: z.boolean(),
  commentCount: z.number().int(),
  /** Its author turned comments off: no new comment or reply. */
  commentsOff: z.boolean(),
  /** On feed pages only: the post's first comments that the reader may see (at most two). */
  firstComments: z.array(commentPreviewSchema).optional(),
  createdAt: z.string(),
  canMintNFT: z.boolean(),
  /** Opaque: pass it as `before` to read the posts after this one. */
  cursor: z.string(),
  /**
   * Only on posts that are not public yet, which only their author sees (the create answer and
   * their own GET /posts/user/:userId; GET /posts/:id for them and admins): "checking" while the automatic check runs after the
   * answer, "held" while it waits for a moderator. Absent on public posts.
   */
  moderation: z.enum(['checking', 'held']).optional(),
  /**
   * Only to the author, while their edit of the caption is not public yet (`caption` is then the
   * edit; everyone else still reads the caption before it): "checking" while its automatic check
   * runs, "held" while it waits for a moderator. Absent otherwise.
   */
  editModeration: z.enum(['checking', 'held']).optional(),
});
export type Post = z.infer<typeof postSchema>;

export const followStatusSchema = z.object({
  following: z.boolean(),
  /** The followed user's count after the change (follow and unfollow answers carry it). */
  followerCount: z.number().int().optional(),
});
export type FollowStatus = z.infer<typeof followStatusSchema>;

export const followBodySchema = z.object({ followerId: text().min(1) });
export type FollowBody = z.infer<typeof followBodySchema>;

export const lolStateSchema = z.object({ lolCount: z.number().int(), isLiked: z.boolean() });
export type LolState = z.infer<typeof lolStateSchema>;

export const WALLET_USERNAME_PREFIX = 'wallet_';

/** The username a wallet account gets: "wallet_" and the first 8 characters of the address. */
export function walletUsername(address: string): string {
  return `${WALLET_USERNAME_PREFIX}${address.slice(0, 8)}`;
}

/** A base58 Solana address (32-byte ed25519 public key). */
export const walletAddressSchema = text().regex(
  /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  'Invalid wallet address',
);

/** What the server asks a wallet to sign (Sign-In With Solana); built by the server. */
export const signInInputSchema = z.object({
  domain: text(),
  address: text(),
  statement: text(),
  uri: text(),
  version: z.literal('1'),
  chainId: text(),
  nonce: text(),
  issuedAt: text(),
  expirationTime: text(),
});
export type SignInInput = z.infer<typeof signInInputSchema>;

/** The wallet's answer, bytes as base64. */
export const signInProofSchema = z.object({
  input: signInInputSchema,
  output: z.object({
    publicKey: text().min(1).max(100),
    signedMessage: text().min(1).max(4000),
    signature: text().min(1).max(200),
  }),
});
export type SignInProof = z.infer<typeof signInProofSchema>;

export const walletNonceBodySchema = z.object({ address: walletAddressSchema });

export const createWalletAccountBodySchema = z.object({
  username: text(),
  walletAddress: walletAddressSchema,
  /** The spec's client also sends the address as a password; a wallet account has none. */
  password: text().optional(),
  proof: signInProofSchema,
});
export type CreateWalletAccountBody = z.infer<typeof createWalletAccountBodySchema>;

export const walletLoginBodySchema = z.object({ proof: signInProofSchema });
