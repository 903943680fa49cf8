/**
 * Every endpoint of the /api contract (the routers: game/routes.ts, game/country/country-routes.ts,
 * game/streaks/streak-routes.ts, game/telegram/telegram-routes.ts, accounts/users-routes.ts,
 * lolgram/relations/follows-routes.ts, lolgram/relations/blocks-routes.ts,
 * lolgram/saves/saves-routes.ts, lolgram/posts/posts-routes.ts, lolgram/comments/comments-routes.ts,
 * lolgram/moderation/moderation-routes.ts, lolgram/notifications/notifications-routes.ts,
 * core/health.ts), with what each part of a request holds. `{kind}` in a path is a parameter of that kind.
 */
export type Kind =
  | 'username'
  | 'password'
  | 'text'
  | 'caption'
  | 'country'
  | 'playerId'
  | 'sessionId'
  | 'userId'
  | 'postId'
  | 'commentId'
  | 'queueId'
  | 'imageKey'
  | 'wallet'
  | 'proof'
  | 'count'
  | 'one'
  | 'postIds'
  | 'decision'
  | 'reason'
  | 'location'
  | 'limit'
  | 'timeframe'
  | 'cursor'
  | 'commentCursor'
  | 'initData';

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, Kind>;
  json?: Record<string, Kind>;
  multipart?: { file: string; fields: Record<string, Kind> };
  /** A success starts or ends a sign-in session: sent without the shared sign-in sessions. */
  signsIn?: boolean;
}

export const CONTRACT: Endpoint[] = [
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/readyz' },

  { method: 'GET', path: '/api/game/config' },
  { method: 'POST', path: '/api/users', json: { username: 'username', country: 'country' } },
  { method: 'GET', path: '/api/users/{playerId}' },
  { method: 'GET', path: '/api/users/{playerId}/rank' },
  { method: 'PATCH', path: '/api/users/me/country', json: { country: 'country' } },
  { method: 'GET', path: '/api/users/{playerId}/around', query: { span: 'limit' } },
  {
    method: 'POST',
    path: '/api/sessions',
    json: { userId: 'playerId', sessionPoints: 'count', sessionTaps: 'count' },
  },
  {
    method: 'POST',
    path: '/api/tap',
    json: {
      userId: 'playerId',
      sessionId: 'sessionId',
      pointsPerTap: 'one',
      sessionPoints: 'count',
      sessionTaps: 'count',
    },
  },
  { method: 'GET', path: '/api/leaderboard/users', query: { limit: 'limit' } },
  { method: 'GET', path: '/api/leaderboard/countries' },
  { method: 'GET', path: '/api/milestone/100k' },
  { method: 'GET', path: '/api/users/{playerId}/streak' },
  { method: 'POST', path: '/api/streak/claim', json: { userId: 'playerId' } },
  {
    method: 'POST',
    path: '/api/telegram/session',
    json: { initData: 'initData', country: 'country' },
    signsIn: true,
  },
  { method: 'POST', path: '/api/telegram/link-codes' },
  { method: 'GET', path: '/api/telegram/link' },

  {
    method: 'POST',
    path: '/api/lolgram/users/create',
    json: { username: 'username', password: 'password' },
    signsIn: true,
  },
  {
    method: 'POST',
    path: '/api/lolgram/users/create',
    json: { username: 'username', walletAddress: 'wallet', password: 'text', proof: 'proof' },
    signsIn: true,
  },
  {
    method: 'POST',
    path: '/api/lolgram/users/login',
    json: { username: 'username', password: 'password' },
    signsIn: true,
  },
  { method: 'POST', path: '/api/lolgram/users/logout', signsIn: true },
  { method: 'GET', path: '/api/lolgram/users/me' },
  { method: 'POST', path: '/api/lolgram/auth/wallet/nonce', json: { address: 'wallet' } },
  {
    method: 'POST',
    path: '/api/lolgram/auth/wallet/login',
    json: { proof: 'proof' },
    signsIn: true,
  },
  { method: 'GET', path: '/api/lolgram/users/wallet/{wallet}' },
  { method: 'GET', path: '/api/lolgram/users/username/{username}' },
  { method: 'GET', path: '/api/lolgram/users/{userId}/following/{userId}' },
  { method: 'POST', path: '/api/lolgram/users/{userId}/follow', json: { followerId: 'userId' } },
  { method: 'DELETE', path: '/api/lolgram/users/{userId}/follow', json: { followerId: 'userId' } },
  {
    method: 'PUT',
    path: '/api/lolgram/users/{userId}/avatar',
    multipart: { file: 'avatar', fields: {} },
  },
  {
    method: 'PUT',
    path: '/api/lolgram/users/{userId}',
    json: { username: 'username', bio: 'text' },
  },
  { method: 'GET', path: '/api/lolgram/users/{userId}' },
  { method: 'GET', path: '/api/lolgram/users/{userId}/block' },
  { method: 'POST', path: '/api/lolgram/users/{userId}/block' },
  { method: 'DELETE', path: '/api/lolgram/users/{userId}/block' },
  {
    method: 'GET',
    path: '/api/lolgram/users/{userId}/blocked',
    query: { limit: 'limit', before: 'cursor' },
  },
  {
    method: 'GET',
    path: '/api/lolgram/users/{userId}/saved',
    query: { limit: 'limit', before: 'cursor' },
  },

  {
    method: 'POST',
    path: '/api/lolgram/posts',
    multipart: {
      file: 'image',
      fields: { caption: 'caption', userId: 'userId', location: 'location' },
    },
  },
  { method: 'GET', path: '/api/lolgram/posts/feed', query: { limit: 'limit', before: 'cursor' } },
  {
    method: 'GET',
    path: '/api/lolgram/posts/user/{userId}',
    query: { limit: 'limit', before: 'cursor' },
  },
  { method: 'POST', path: '/api/lolgram/posts/views', json: { postIds: 'postIds' } },
  {
    method: 'GET',
    path: '/api/lolgram/posts/located',
    query: { limit: 'limit', before: 'cursor' },
  },
  { method: 'GET', path: '/api/lolgram/posts/located/count' },
  { method: 'GET', path: '/api/lolgram/posts/{postId}' },
  { method: 'PATCH', path: '/api/lolgram/posts/{postId}', json: { caption: 'caption' } },
  { method: 'DELETE', path: '/api/lolgram/posts/{postId}' },
  { method: 'POST', path: '/api/lolgram/posts/{postId}/lol' },
  { method: 'DELETE', path: '/api/lolgram/posts/{postId}/lol' },
  { method: 'POST', path: '/api/lolgram/posts/{postId}/save' },
  { method: 'DELETE', path: '/api/lolgram/posts/{postId}/save' },
  { method: 'GET', path: '/api/lolgram/images/{imageKey}' },

  {
    method: 'GET',
    path: '/api/lolgram/posts/{postId}/comments',
    query: { limit: 'limit', after: 'commentCursor' },
  },
  {
    method: 'POST',
    path: '/api/lolgram/posts/{postId}/comments',
    json: { text: 'text', parentId: 'commentId' },
  },
  { method: 'DELETE', path: '/api/lolgram/comments/{commentId}' },
  { method: 'PUT', path: '/api/lolgram/posts/{postId}/comments-off' },
  { method: 'DELETE', path: '/api/lolgram/posts/{postId}/comments-off' },
  {
    method: 'POST',
    path: '/api/lolgram/comments/{commentId}/report',
    json: { reason: 'reason', details: 'text' },
  },

  {
    method: 'POST',
    path: '/api/lolgram/posts/{postId}/report',
    json: { reason: 'reason', details: 'text' },
  },
  {
    method: 'GET',
    path: '/api/lolgram/notifications',
    query: { limit: 'limit', before: 'cursor' },
  },
  { method: 'GET', path: '/api/lolgram/notifications/unread-count' },
  { method: 'POST', path: '/api/lolgram/notifications/read', json: { upTo: 'cursor' } },
  { method: 'GET', path: '/api/lolgram/admin/moderation/queue' },
  {
    method: 'POST',
    path: '/api/lolgram/admin/moderation/{queueId}',
    json: { moderatorId: 'userId', decision: 'decision', notes: 'text' },
  },
  { method: 'GET', path: '/api/lolgram/admin/stats' },
  {
    method: 'GET',
    path: '/api/lolgram/analytics/popular',
    query: { timeframe: 'timeframe', limit: 'limit' },
  },
];
