import { z } from 'zod';
import {
  bioSchema,
  captionSchema,
  messages,
  newPasswordSchema,
  usernameSchema,
} from './validation';

export const lolgramUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
  bio: z.string().nullable(),
  followerCount: z.number().int(),
  followingCount: z.number().int(),
  postCount: z.number().int(),
  walletAddress: z.string().nullable(),
  isVerified: z.boolean(),
});
export type LolgramUser = z.infer<typeof lolgramUserSchema>;

export const authMethodSchema = z.enum(['password', 'wallet']);
export type AuthMethod = z.infer<typeof authMethodSchema>;

/** The client's stored LOLGram session (spec section 3), valid for 7 days from `timestamp`. */
export const storedSessionSchema = z.object({
  id: z.string(),
  username: z.string(),
  authMethod: authMethodSchema,
  timestamp: z.number(),
  avatar: z.string().nullable().optional(),
  bio: z.string().nullable().optional(),
  followerCount: z.number().optional(),
  followingCount: z.number().optional(),
  isVerified: z.boolean().optional(),
});
export type StoredSession = z.infer<typeof storedSessionSchema>;

export interface AuthState {
  isAuthenticated: boolean;
  user: LolgramUser | null;
  authMethod: AuthMethod | null;
}

export const loginBodySchema = z.object({
  username: z.string().trim().min(1, messages.fillAllFields),
  password: z.string().min(1, messages.fillAllFields),
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
  name: z.string().trim().min(1).max(100),
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
});
export type PostLocation = z.infer<typeof locationSchema>;

export const createPostFieldsSchema = z.object({
  caption: captionSchema,
  userId: z.string().min(1, messages.userNotFound),
  location: locationSchema.optional(),
});
export type CreatePostFields = z.infer<typeof createPostFieldsSchema>;

export const postSchema = z.object({
  id: z.string(),
  userId: z.string(),
  username: z.string(),
  userAvatar: z.string().nullable(),
  imageUrl: z.string(),
  thumbnailUrl: z.string(),
  caption: z.string(),
  location: locationSchema.nullable(),
  lolCount: z.number().int(),
  isLiked: z.boolean(),
  commentCount: z.number().int(),
  createdAt: z.string(),
  canMintNFT: z.boolean(),
});
export type Post = z.infer<typeof postSchema>;

export const followStatusSchema = z.object({ following: z.boolean() });
export type FollowStatus = z.infer<typeof followStatusSchema>;

export const followBodySchema = z.object({ followerId: z.string().min(1) });
export type FollowBody = z.infer<typeof followBodySchema>;

export const lolStateSchema = z.object({ lolCount: z.number().int(), isLiked: z.boolean() });
export type LolState = z.infer<typeof lolStateSchema>;
