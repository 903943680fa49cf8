/** A post's own page: the address to share, which opens the post directly. */
export const postPath = (postId: string): string => `/lolgram/p/${encodeURIComponent(postId)}`;
