/** Where the focus goes after an action took away what had it (see lib/focus-when-ready.ts). */
export const FOCUS_TARGETS = {
  /** The feed, after one's post was deleted from it (or from its own page). */
  feed: 'lolgram-feed',
  /** The signed-in header's account button, after signing in. */
  account: 'lolgram-account',
} as const;

/** A post's card in a list, by its id. */
export const postCard = (postId: string) =>
  document.querySelector<HTMLElement>(`[data-post-id="${CSS.escape(postId)}"]`);
