/** Query keys are the API paths; the default query function joins them with "/". */
export const authKeys = {
  /** The signed-in user as the server sees them (401 when nobody is), with `isAdmin`. */
  me: ['/api/lolgram/users/me'],
} as const;
