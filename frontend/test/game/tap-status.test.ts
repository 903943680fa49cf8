import { describe, expect, it } from 'vitest';
import {
  initialTapStatus,
  tapStatusReducer,
  type TapStatus,
  type TapStatusEvent,
} from '../../src/features/game/tap-status';

const run = (events: TapStatusEvent[], from: TapStatus = initialTapStatus) =>
  events.reduce(tapStatusReducer, from);

const followed = (unconfirmed: number, offline = false): TapStatusEvent => ({
  type: 'followed',
  unconfirmed,
  waitingHere: unconfirmed,
  sent: [],
  offline,
});

describe('the status line of the taps', () => {
  it.each<[string, TapStatusEvent[], TapStatus['sync'], boolean]>([
    ['a page that has nothing to say', [followed(0)], 'live', false],
    ['taps waiting offline', [followed(3, true)], 'offline', true],
    [
      'back, the server answering, sending what waited',
      [followed(3, true), { type: 'heard' }, followed(2)],
      'sending',
      false,
    ],
    // The sender's own word is not enough: "back" once the server has answered.
    ['the sender trying again, no answer yet', [followed(3, true), followed(3)], 'offline', true],
    [
      'back, everything counted',
      [followed(3, true), { type: 'heard' }, followed(0)],
      'synced',
      false,
    ],
    // The sender stops saying offline without an answer (nothing was left to ask with).
    ['offline, no answer since', [followed(0, true), followed(0)], 'offline', true],
    [
      'opened offline, the sender knowing nothing',
      [{ type: 'opened-offline' }, followed(0)],
      'offline',
      true,
    ],
    [
      'opened offline, with taps the page found',
      [{ type: 'opened-offline' }, { type: 'adopted' }, followed(2)],
      'offline',
      true,
    ],
    [
      'opened offline, then the server answers',
      [{ type: 'opened-offline' }, followed(0), { type: 'heard' }],
      'synced',
      false,
    ],
    [
      'opened offline, answered, taps still going',
      [{ type: 'opened-offline' }, followed(2), { type: 'heard' }],
      'sending',
      false,
    ],
    [
      'a page that found taps, all counted',
      [{ type: 'adopted' }, followed(4), { type: 'heard' }, followed(0)],
      'synced',
      false,
    ],
    [
      'synced, then a tap',
      [
        followed(1, true),
        { type: 'heard' },
        followed(0),
        { type: 'tapped', unconfirmed: 1, waitingHere: 1, sent: [] },
      ],
      'live',
      false,
    ],
  ])('%s', (_, events, sync, offline) => {
    const status = run(events);
    expect(status.sync).toBe(sync);
    expect(status.offline).toBe(offline);
  });
});
