import { referralWaitingReason, type GameUser } from '@tapgram/shared';
import { describe, expect, it } from 'vitest';
import {
  InvitationsService,
  type InvitationsPorts,
  type InvitationsStore,
} from '../../../src/game/friends/invitations-service';
import type { InvitationRow, PayOutcome } from '../../../src/game/friends/referral-repository';
import type { BonusGrant } from '../../../src/game/store';

const rules = { taps: 10, days: 2, dailyCap: 1, bonus: 100 };
const calendar = { startMs: 0, lengthMs: 7 * 86_400_000 };
const INVITER = '11111111-1111-4111-8111-111111111111';
const INVITEE = '22222222-2222-4222-8222-222222222222';
const OTHER = '33333333-3333-4333-8333-333333333333';

/**
 * The invitations' rules against ports kept in memory: codes, invitations (once an invitee),
 * each invitee's taps by day, and the inviter's payments per day against the cap.
 */
function makeInvitations({ frozen = new Set<string>() } = {}) {
  const codes = new Map<string, string>([['abcdefgh', INVITER]]);
  const invitations: (InvitationRow & { inviterId: string })[] = [];
  const taps = new Map<string, Map<number, number>>();
  let paidToday = 0;
  const granted: BonusGrant[] = [];
  const progress = (id: string) => {
    const days = [...(taps.get(id) ?? new Map<number, number>())].filter(([, n]) => n > 0);
    return {
      taps: days.reduce((sum, [, n]) => sum + n, 0),
      days: days.length,
      tapDays: days.map(([d]) => d),
    };
  };
  const ports: InvitationsPorts = {
    codeOf: async (userId) => [...codes].find(([, owner]) => owner === userId)?.[0] ?? null,
    insertCode: async (userId, code) => {
      if (codes.has(code)) return false;
      codes.set(code, userId);
      return true;
    },
    ownerOf: async (code) => codes.get(code) ?? null,
    isFrozen: async (id) => frozen.has(id),
    recordInvitation: async (inviterId, inviteeId) => {
      if (invitations.some((i) => i.inviteeId === inviteeId)) return null;
      const id = `inv-${invitations.length + 1}`;
      invitations.push({
        id,
        inviterId,
        inviteeId,
        inviteeName: inviteeId,
        createdAt: new Date(0),
        state: 'pending',
        reason: null,
        settledAt: null,
        taps: 0,
        days: 0,
        tapDays: [],
      });
      return id;
    },
    referrals: {
      invitationsOf: async (inviterId) =>
        invitations
          .filter((i) => i.inviterId === inviterId)
          .map((i) => ({ ...i, ...progress(i.inviteeId) })),
      capReached: async () => paidToday >= rules.dailyCap,
      due: async (r) =>
        invitations
          .filter((i) => i.state === 'pending')
          .filter(
            (i) => progress(i.inviteeId).taps >= r.taps && progress(i.inviteeId).days >= r.days,
          )
          .map((i) => i.id),
      pay: async (id, r): Promise<PayOutcome> => {
        const invitation = invitations.find((i) => i.id === id && i.state === 'pending');
        if (!invitation) return { kind: 'settled' };
        if (paidToday >= r.dailyCap) return { kind: 'waiting' };
        paidToday += 1;
        invitation.state = 'paid';
        invitation.settledAt = new Date(0);
        return {
          kind: 'paid',
          grants: [invitation.inviterId, invitation.inviteeId].map((userId) => ({
            userId,
            points: r.bonus,
            marker: `ref:${id}`,
            rank: 1,
          })),
        };
      },
    },
  };
  const store: InvitationsStore = {
    getUser: async (id) =>
      ({ id, username: id, country: 'GB', totalPoints: 0, totalTaps: 0 }) as GameUser,
    recentDayTaps: async () => [],
    grantBonuses: async (record) => {
      const grants = await record({ addPoints: true, granted: async () => {} });
      granted.push(...grants);
      return grants;
    },
  };
  const service = new InvitationsService({ store, ports, rules, calendar });
  const play = (id: string, day: number, count: number) => {
    const days = taps.get(id) ?? new Map<number, number>();
    days.set(day, (days.get(day) ?? 0) + count);
    taps.set(id, days);
  };
  return { service, granted, play, nextDay: () => (paidToday = 0) };
}

describe('the invitations service', () => {
  it.each([
    ['a malformed code', 'not-a-code!', 'malformed'],
    ['an unknown code', 'zzzzzzzz', 'unknown'],
  ] as const)('records nothing for %s', async (_name, code, why) => {
    const { service } = makeInvitations();
    expect(await service.accept({ inviteeId: INVITEE, code })).toEqual({ kind: 'ignored', why });
  });

  it('never counts a player as their own invitee, nor a frozen inviter', async () => {
    expect(
      await makeInvitations().service.accept({ inviteeId: INVITER, code: 'abcdefgh' }),
    ).toEqual({ kind: 'ignored', why: 'self' });
    const frozen = makeInvitations({ frozen: new Set([INVITER]) });
    expect(await frozen.service.accept({ inviteeId: INVITEE, code: 'ABCDEFGH' })).toEqual({
      kind: 'ignored',
      why: 'frozen',
    });
  });

  it('counts an invitee once, whatever the code is sent in', async () => {
    const { service } = makeInvitations();
    expect(await service.accept({ inviteeId: INVITEE, code: 'ABCDEFGH' })).toMatchObject({
      kind: 'recorded',
    });
    expect(await service.accept({ inviteeId: INVITEE, code: 'abcdefgh' })).toEqual({
      kind: 'ignored',
      why: 'not-new',
    });
  });

  it('shows joined, then playing with its progress, and pays both sides at the threshold', async () => {
    const { service, granted, play } = makeInvitations();
    await service.accept({ inviteeId: INVITEE, code: 'abcdefgh' });
    expect((await service.invitations(INVITER, INVITER)).invitations[0]).toMatchObject({
      state: 'joined',
      taps: 0,
    });
    play(INVITEE, 1, 5);
    play(INVITEE, 2, 4);
    expect((await service.invitations(INVITER, INVITER)).invitations[0]).toMatchObject({
      state: 'playing',
      taps: 9,
      days: 2,
    });
    // Nine taps over two days: not yet.
    expect(granted).toEqual([]);
    play(INVITEE, 2, 1);
    expect((await service.invitations(INVITER, INVITER)).invitations[0].state).toBe('paid');
    expect(granted.map((g) => [g.userId, g.points])).toEqual([
      [INVITER, 100],
      [INVITEE, 100],
    ]);
    await service.payDue();
    expect(granted).toHaveLength(2);
  });

  it('does not pay ten taps made on one day', async () => {
    const { service, granted, play } = makeInvitations();
    await service.accept({ inviteeId: INVITEE, code: 'abcdefgh' });
    play(INVITEE, 1, 50);
    expect(await service.payDue()).toBe(0);
    expect(granted).toEqual([]);
  });

  it("makes a bonus beyond the inviter's daily cap wait, and pays it on a later day", async () => {
    const { service, granted, play, nextDay } = makeInvitations();
    for (const id of [INVITEE, OTHER]) {
      await service.accept({ inviteeId: id, code: 'abcdefgh' });
      play(id, 1, 5);
      play(id, 2, 5);
    }
    const { invitations } = await service.invitations(INVITER, INVITER);
    expect(invitations.map((i) => [i.state, i.reason])).toEqual([
      ['paid', null],
      ['waiting', referralWaitingReason],
    ]);
    expect(granted).toHaveLength(2);
    nextDay();
    expect(await service.payDue()).toBe(1);
    expect(granted).toHaveLength(4);
  });

  it("refuses another browser's read of the invitations", async () => {
    const { service } = makeInvitations();
    await expect(service.invitations(OTHER, INVITER)).rejects.toMatchObject({ status: 403 });
    await expect(service.invite(null, INVITER)).rejects.toMatchObject({ status: 403 });
  });
});
