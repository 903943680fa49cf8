import {
  boardsDeltaSchema,
  boardsPushSchema,
  boardsSnapshotSchema,
  compactTapAckSchema,
  gameEvents,
  liveEventSchemas,
  playerFrozenPushSchema,
  seasonBoardsDeltaSchema,
  seasonBoardsSnapshotSchema,
  tapAllowanceSchema,
  tapSyncAckSchema,
  watchAckSchema,
} from '@tapgram/shared';
import { mismatch, reportDrift } from './api-answers';

type Schema = Parameters<typeof mismatch>[0];

/** What the server answers each call of the game channel, as the game screen's handshake asks. */
const ANSWERS: Record<string, Schema> = {
  [gameEvents.tap]: compactTapAckSchema,
  [gameEvents.sync]: tapSyncAckSchema,
  [gameEvents.watch]: watchAckSchema,
};

/** What the server pushes on the signed-in live channel. */
const LIVE_PUSHES: Record<string, Schema> = liveEventSchemas;

/** What the server pushes to the game screen (whole boards until its first `watch`). */
const PUSHES: Record<string, Schema> = {
  [gameEvents.allowance]: tapAllowanceSchema,
  [gameEvents.boards]: boardsPushSchema,
  [gameEvents.boardsSnapshot]: boardsSnapshotSchema,
  [gameEvents.boardsDelta]: boardsDeltaSchema,
  [gameEvents.seasonSnapshot]: seasonBoardsSnapshotSchema,
  [gameEvents.seasonDelta]: seasonBoardsDeltaSchema,
  [gameEvents.frozen]: playerFrozenPushSchema,
};

function check(kind: string, schemas: Record<string, Schema>, event: string, payload: unknown) {
  const schema = schemas[event];
  const problem =
    schema === undefined ? 'no shared schema for this event' : mismatch(schema, payload);
  if (problem === null) return;
  const message = `The fake socket's ${kind} of ${event} is what the server never sends: ${problem}`;
  reportDrift(message);
  throw new Error(message);
}

/** Checks a stubbed answer of the game channel against the shared schema of its event. */
export function checkedSocketAnswer(event: string, answer: unknown): unknown {
  check('answer', ANSWERS, event, answer);
  return answer;
}

/** Checks a stubbed push of the game channel against the shared schema of its event. */
export function checkPush(event: string, payload: unknown): void {
  check('push', PUSHES, event, payload);
}

/** Checks a stubbed push of the live channel against the shared schema of its event. */
export function checkLivePush(event: string, payload: unknown): void {
  check('push', LIVE_PUSHES, event, payload);
}
