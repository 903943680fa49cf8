import {
  accountSettingsSchema,
  adminStatsSchema,
  avatarAnswerSchema,
  blockedUserSchema,
  blockStateSchema,
  commentPageSchema,
  commentSchema,
  commentSignalSchema,
  commentsOffStateSchema,
  currentSeasonSchema,
  endedSessionsSchema,
  errorBodySchema,
  followStatusSchema,
  gameConfigSchema,
  gameSessionSchema,
  gameUserSchema,
  playerRecordSchema,
  leaderboardCountrySchema,
  leaderboardUserSchema,
  locatedCountSchema,
  lolgramUserSchema,
  lolStateSchema,
  meAnswerSchema,
  milestoneResponseSchema,
  moderationDecisionAnswerSchema,
  moderationQueueEntrySchema,
  notificationSchema,
  pastSeasonSchema,
  playerActionSchema,
  playerDetailSchema,
  playerSeasonSchema,
  playersPageSchema,
  popularItemSchema,
  postSchema,
  rankedUserSchema,
  rankResponseSchema,
  reportAnswerSchema,
  saveStateSchema,
  signInInputSchema,
  tapResultSchema,
  unreadCountSchema,
} from '@tapgram/shared';

/** What the checks need of a shared (zod) schema. */
interface Schema {
  safeParse(
    value: unknown,
  ): { success: true; data: unknown } | { success: false; error: { message: string } };
}

type Answer = { schema: Schema; list: boolean } | 'no content';

const one = (schema: Schema): Answer => ({ schema, list: false });
const list = (schema: Schema): Answer => ({ schema, list: true });

/** Every endpoint the screens call, and the shared schema of its answer; the first match counts. */
const ENDPOINTS: { methods: string[]; path: RegExp; answer: Answer }[] = [
  { methods: ['GET'], path: /^\/api\/game\/config$/, answer: one(gameConfigSchema) },
  { methods: ['POST'], path: /^\/api\/users$/, answer: one(gameUserSchema) },
  { methods: ['GET'], path: /^\/api\/users\/[^/]+\/rank$/, answer: one(rankResponseSchema) },
  { methods: ['GET'], path: /^\/api\/users\/[^/]+\/around$/, answer: list(rankedUserSchema) },
  {
    methods: ['GET'],
    path: /^\/api\/users\/[^/]+\/seasons$/,
    answer: list(playerSeasonSchema),
  },
  { methods: ['GET'], path: /^\/api\/users\/[^/]+$/, answer: one(playerRecordSchema) },
  { methods: ['POST'], path: /^\/api\/sessions$/, answer: one(gameSessionSchema) },
  { methods: ['POST'], path: /^\/api\/tap$/, answer: one(tapResultSchema) },
  { methods: ['GET'], path: /^\/api\/leaderboard\/users$/, answer: list(leaderboardUserSchema) },
  {
    methods: ['GET'],
    path: /^\/api\/leaderboard\/countries$/,
    answer: list(leaderboardCountrySchema),
  },
  { methods: ['GET'], path: /^\/api\/milestone\/100k$/, answer: one(milestoneResponseSchema) },
  { methods: ['GET'], path: /^\/api\/seasons\/current$/, answer: one(currentSeasonSchema) },
  { methods: ['GET'], path: /^\/api\/seasons$/, answer: list(pastSeasonSchema) },
  {
    methods: ['GET'],
    path: /^\/api\/seasons\/(current|\d+)\/users$/,
    answer: list(rankedUserSchema),
  },
  {
    methods: ['GET'],
    path: /^\/api\/seasons\/(current|\d+)\/countries$/,
    answer: list(leaderboardCountrySchema),
  },

  { methods: ['GET'], path: /^\/api\/lolgram\/users\/me$/, answer: one(meAnswerSchema) },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/users\/(login|create)$/,
    answer: one(lolgramUserSchema),
  },
  { methods: ['POST'], path: /^\/api\/lolgram\/users\/logout$/, answer: 'no content' },
  {
    methods: ['GET', 'POST', 'DELETE'],
    path: /^\/api\/lolgram\/users\/me\/(settings|wallet)$/,
    answer: one(accountSettingsSchema),
  },
  {
    methods: ['PUT', 'POST'],
    path: /^\/api\/lolgram\/users\/me\/(password|sessions\/end-others)$/,
    answer: one(endedSessionsSchema),
  },
  { methods: ['POST'], path: /^\/api\/lolgram\/users\/me\/delete$/, answer: 'no content' },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/auth\/wallet\/nonce$/,
    answer: one(signInInputSchema),
  },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/auth\/wallet\/login$/,
    answer: one(lolgramUserSchema),
  },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/users\/(wallet|username)\/[^/]+$/,
    answer: one(lolgramUserSchema),
  },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/users\/[^/]+\/following\/[^/]+$/,
    answer: one(followStatusSchema),
  },
  {
    methods: ['POST', 'DELETE'],
    path: /^\/api\/lolgram\/users\/[^/]+\/follow$/,
    answer: one(followStatusSchema),
  },
  {
    methods: ['PUT'],
    path: /^\/api\/lolgram\/users\/[^/]+\/avatar$/,
    answer: one(avatarAnswerSchema),
  },
  {
    methods: ['GET', 'POST', 'DELETE'],
    path: /^\/api\/lolgram\/users\/[^/]+\/block$/,
    answer: one(blockStateSchema),
  },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/users\/[^/]+\/blocked$/,
    answer: list(blockedUserSchema),
  },
  { methods: ['GET'], path: /^\/api\/lolgram\/users\/[^/]+\/saved$/, answer: list(postSchema) },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/notifications\/unread-count$/,
    answer: one(unreadCountSchema),
  },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/notifications\/read$/,
    answer: one(unreadCountSchema),
  },
  { methods: ['GET'], path: /^\/api\/lolgram\/notifications$/, answer: list(notificationSchema) },
  {
    methods: ['GET', 'PUT'],
    path: /^\/api\/lolgram\/users\/[^/]+$/,
    answer: one(lolgramUserSchema),
  },

  { methods: ['POST'], path: /^\/api\/lolgram\/posts$/, answer: one(postSchema) },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/posts\/[^/]+\/comments$/,
    answer: one(commentPageSchema),
  },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/posts\/[^/]+\/comments$/,
    answer: one(commentSchema),
  },
  {
    methods: ['PUT', 'DELETE'],
    path: /^\/api\/lolgram\/posts\/[^/]+\/comments-off$/,
    answer: one(commentsOffStateSchema),
  },
  { methods: ['DELETE'], path: /^\/api\/lolgram\/comments\/[^/]+$/, answer: 'no content' },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/comments\/[^/]+\/report$/,
    answer: one(reportAnswerSchema),
  },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/posts\/(feed|located|user\/[^/]+)$/,
    answer: list(postSchema),
  },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/posts\/located\/count$/,
    answer: one(locatedCountSchema),
  },
  { methods: ['GET', 'PATCH'], path: /^\/api\/lolgram\/posts\/[^/]+$/, answer: one(postSchema) },
  { methods: ['DELETE'], path: /^\/api\/lolgram\/posts\/[^/]+$/, answer: 'no content' },
  { methods: ['POST'], path: /^\/api\/lolgram\/posts\/views$/, answer: 'no content' },
  {
    methods: ['POST', 'DELETE'],
    path: /^\/api\/lolgram\/posts\/[^/]+\/lol$/,
    answer: one(lolStateSchema),
  },
  {
    methods: ['POST', 'DELETE'],
    path: /^\/api\/lolgram\/posts\/[^/]+\/save$/,
    answer: one(saveStateSchema),
  },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/posts\/[^/]+\/report$/,
    answer: one(reportAnswerSchema),
  },

  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/admin\/moderation\/queue$/,
    answer: list(moderationQueueEntrySchema),
  },
  {
    methods: ['POST'],
    path: /^\/api\/lolgram\/admin\/moderation\/[^/]+$/,
    answer: one(moderationDecisionAnswerSchema),
  },
  { methods: ['GET'], path: /^\/api\/lolgram\/admin\/stats$/, answer: one(adminStatsSchema) },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/admin\/comment-signals$/,
    answer: list(commentSignalSchema),
  },
  {
    methods: ['GET'],
    path: /^\/api\/lolgram\/analytics\/popular$/,
    answer: list(popularItemSchema),
  },

  { methods: ['GET'], path: /^\/api\/admin\/game\/players$/, answer: one(playersPageSchema) },
  {
    methods: ['GET'],
    path: /^\/api\/admin\/game\/players\/[^/]+$/,
    answer: one(playerDetailSchema),
  },
  {
    methods: ['POST'],
    path: /^\/api\/admin\/game\/players\/[^/]+\/(freeze|unfreeze)$/,
    answer: one(playerDetailSchema),
  },
  { methods: ['GET'], path: /^\/api\/admin\/game\/actions$/, answer: list(playerActionSchema) },
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** Fields of `body` that parsing dropped: names the schema, and so the server, does not have. */
function unknownFields(body: unknown, parsed: unknown, at: string): string[] {
  if (Array.isArray(body) && Array.isArray(parsed)) {
    return body.flatMap((item, index) => unknownFields(item, parsed[index], `${at}[${index}]`));
  }
  if (!isObject(body) || !isObject(parsed) || Array.isArray(body)) return [];
  return Object.keys(body).flatMap((key) =>
    key in parsed ? unknownFields(body[key], parsed[key], `${at}.${key}`) : [`${at}.${key}`],
  );
}

/** Why `body` is not an answer of `schema` (fields it does not name included), or null. */
export function mismatch(schema: Schema, body: unknown): string | null {
  const result = schema.safeParse(body);
  if (!result.success) return result.error.message;
  const unknown = unknownFields(body, result.data, 'body');
  return unknown.length > 0 ? `fields the schema does not name: ${unknown.join(', ')}` : null;
}

function answerFor(method: string, path: string): Answer | null {
  const endpoint = ENDPOINTS.find((e) => e.methods.includes(method) && e.path.test(path));
  return endpoint?.answer ?? null;
}

async function problemOf(method: string, path: string, response: Response): Promise<string | null> {
  const text = await response.text();
  const answer = answerFor(method, path);
  if (response.status === 204) {
    if (text !== '') return 'a 204 with a body';
    return answer === 'no content' ? null : 'a 204 where the server answers JSON';
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `a body that is not JSON: ${JSON.stringify(text)}`;
  }
  if (!response.ok) return mismatch(errorBodySchema, body);
  if (answer === null) return 'no shared schema for this endpoint (add it to test/api-answers.ts)';
  if (answer === 'no content')
    return `a ${response.status} with a body where the server answers 204`;
  if (!answer.list) return mismatch(answer.schema, body);
  if (!Array.isArray(body)) return 'not a list';
  for (const [index, item] of body.entries()) {
    const problem = mismatch(answer.schema, item);
    if (problem !== null) return `item ${index}: ${problem}`;
  }
  return null;
}

const drifted: string[] = [];
const foreign = new WeakSet<Response>();

/**
 * Marks an answer the server itself never gives but something between it and the browser may
 * (a proxy's empty 500): the checks let it through.
 */
export function notFromServer(response: Response): Response {
  foreign.add(response);
  return response;
}

/**
 * Checks a stubbed answer against the shared schema of its endpoint (an error against `{error}`),
 * so that no stub answers what the server cannot. A mismatch fails the call and the test.
 */
export async function checkedAnswer(
  method: string,
  url: string,
  response: Response,
): Promise<Response> {
  if (foreign.has(response)) return response;
  const path = new URL(url, 'http://localhost').pathname;
  const problem = await problemOf(method, path, response.clone());
  if (problem === null) return response;
  const message = `The stub of ${method} ${path} answers what the server never does: ${problem}`;
  drifted.push(message);
  throw new Error(message);
}

/** Records a mismatch found by another check (the game channel's answers): it fails the test. */
export function reportDrift(message: string): void {
  drifted.push(message);
}

/** The mismatches found since the last call; the setup fails a test that had any. */
export function takeDrift(): string[] {
  return drifted.splice(0);
}
