import { countryChangeTooSoon, type ChangeCountryResult } from '@tapgram/shared';
import { NotFoundError, TooManyRequestsError } from '../../core/errors';
import type { OperatorsRepository } from '../operators/operators-repository';
import type { GameStore } from '../store';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A player's change of country after the welcome dialog: at most once every `days` days (0: no
 * wait), measured on Postgres's clock so that every node agrees; recorded in the operators' audit.
 * The store moves the points (see GameStore.changeCountry).
 */
export class CountryService {
  private readonly store: GameStore;
  private readonly audit: Pick<OperatorsRepository, 'on'>;
  private readonly days: number;

  constructor({
    store,
    audit,
    days,
  }: {
    store: GameStore;
    audit: Pick<OperatorsRepository, 'on'>;
    /** COUNTRY_CHANGE_DAYS. */
    days: number;
  }) {
    this.store = store;
    this.audit = audit;
    this.days = days;
  }

  /** `player`: the one the request's signed cookie names. */
  async change(player: string, country: string): Promise<ChangeCountryResult> {
    const outcome = await this.store.changeCountry(player, country, async (client, found) => {
      const next = this.nextChangeAt(found.changedAt);
      if (next && next > found.now) {
        const seconds = Math.ceil((next.getTime() - found.now.getTime()) / 1000);
        throw new TooManyRequestsError(countryChangeTooSoon(next), seconds);
      }
      await this.audit
        .on(client)
        .recordAction(player, null, 'change-country', `from ${found.country} to ${country}`);
    });
    if (outcome.kind === 'missing') throw new NotFoundError('User not found');
    const next = this.nextChangeAt(outcome.changedAt);
    return {
      user: outcome.user,
      changed: outcome.kind === 'changed',
      nextChangeAt: next ? next.toISOString() : null,
    };
  }

  /** When a player who last changed at `changedAt` may change again; null: at any time. */
  private nextChangeAt(changedAt: Date | null): Date | null {
    if (this.days === 0 || !changedAt) return null;
    return new Date(changedAt.getTime() + this.days * DAY_MS);
  }
}
