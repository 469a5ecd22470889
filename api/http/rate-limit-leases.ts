import { RateLimiterRes, type RateLimiterRedis } from 'rate-limiter-flexible';

/** What the limiter decided for one request. */
export type Admission = { allowed: true; remaining: number; resetMs: number } | { allowed: false; resetMs: number };

interface Lease {
  /** Points taken from Redis and not yet spent by this process. */
  left: number;
  /** The account's shared counter right after this lease was taken. */
  counted: number;
  /** When the window in Redis ends, and with it the lease. */
  expiresAt: number;
}

/** The share of the limit a process takes from Redis at once. */
const LEASE_FRACTION = 0.01;

/**
 * A per-account limit shared through Redis, asking Redis once per lease rather than once per request.
 * A lease is a block of points added to the account's counter in one step (`ceil(limit / 100)`,
 * so a single point for any limit up to 100 and an exact count); requests then spend it in process
 * until it runs out or the window ends. Points are granted only up to the limit as Redis counts it,
 * so processes together never admit more than the limit; a lease another process holds unspent can
 * only make this one refuse early, by at most one lease per other process and window. One lease per
 * account is asked for at a time: concurrent requests wait for it instead of each going to Redis.
 */
export class LeasedRateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly pending = new Map<string, Promise<void>>();
  private readonly leaseSize: number;
  private sweptAt = 0;

  constructor(
    private readonly limiter: RateLimiterRedis,
    readonly limit: number,
  ) {
    this.leaseSize = Math.max(1, Math.ceil(limit * LEASE_FRACTION));
  }

  /**
   * Spends one point of the account from its lease, without waiting: undefined when the lease is
   * spent or its window over, and Redis must be asked (`admit`).
   */
  admitFromLease(accountId: string): Admission | undefined {
    const lease = this.leases.get(accountId);
    if (lease === undefined) return undefined;
    const now = Date.now();
    if (lease.expiresAt <= now) return undefined;
    if (lease.left > 0) {
      lease.left -= 1;
      return { allowed: true, remaining: this.limit - lease.counted + lease.left, resetMs: lease.expiresAt - now };
    }
    if (lease.counted >= this.limit) return { allowed: false, resetMs: lease.expiresAt - now };
    return undefined;
  }

  /** Spends one point of the account, taking a new lease when needed; rejects only when Redis could not be asked. */
  async admit(accountId: string): Promise<Admission> {
    for (;;) {
      const admission = this.admitFromLease(accountId);
      if (admission !== undefined) return admission;
      await this.renew(accountId);
    }
  }

  private renew(accountId: string): Promise<void> {
    let renewal = this.pending.get(accountId);
    if (renewal === undefined) {
      renewal = this.take(accountId).finally(() => this.pending.delete(accountId));
      this.pending.set(accountId, renewal);
    }
    return renewal;
  }

  private async take(accountId: string): Promise<void> {
    let counted: number;
    let windowMs: number;
    try {
      const outcome = await this.limiter.consume(accountId, this.leaseSize);
      counted = outcome.consumedPoints;
      windowMs = outcome.msBeforeNext;
    } catch (rejection: unknown) {
      // Over the limit the counter still grew by the whole lease; the part below the limit is ours.
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      counted = rejection.consumedPoints;
      windowMs = rejection.msBeforeNext;
    }
    const granted = Math.max(0, Math.min(this.leaseSize, this.limit - (counted - this.leaseSize)));
    this.forgetExpired();
    this.leases.set(accountId, {
      left: granted,
      counted: Math.min(counted, this.limit),
      expiresAt: Date.now() + windowMs,
    });
  }

  /**
   * Leases end with their window; ended ones are dropped at most once a second, so that with many
   * accounts a renewal does not walk the whole map each time.
   */
  private forgetExpired(): void {
    const now = Date.now();
    if (now - this.sweptAt < 1000) return;
    this.sweptAt = now;
    for (const [accountId, lease] of this.leases) {
      if (lease.expiresAt <= now) this.leases.delete(accountId);
    }
  }
}
