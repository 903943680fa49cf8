import { HttpError } from '../../core/errors';
import type { Logger } from '../../core/logger';
import type { InvitationsService } from './invitations-service';

/**
 * Pays the referral bonuses that became due, every `intervalMs`, on every process: the taps that
 * reach the threshold never wait for the payment (the tap's path is unchanged), and a payment is
 * decided once in Postgres whichever process looks first. A player reading their invitations
 * pays theirs at once too.
 */
export class ReferralPayer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;

  constructor(
    private readonly invitations: InvitationsService,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  check(): Promise<void> {
    this.running ??= this.invitations
      .payDue()
      .then(
        () => undefined,
        (err: unknown) => {
          // Unavailable storage is said elsewhere; the next look tries again.
          if (!(err instanceof HttpError)) this.logger.error({ err }, 'referral payment failed');
        },
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }
}
