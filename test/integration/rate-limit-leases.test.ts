import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { LeasedRateLimiter, type Admission } from '../../api/http/rate-limit-leases.js';
import { useTestRedis } from '../support/test-redis.js';

// A long window, so that no test straddles two windows however slow the machine.
const WINDOW_S = 60;

const redis = useTestRedis();
const keyPrefix = (): string => `${redis.keyPrefix}leases`;

function limiterOf(limit: number, client: Redis = redis.client): LeasedRateLimiter {
  const store = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: keyPrefix(),
    points: limit,
    duration: WINDOW_S,
    rejectIfRedisNotReady: true,
  });
  return new LeasedRateLimiter(store, limit);
}

async function counterOf(accountId: string): Promise<number> {
  return Number(await redis.client.get(`${keyPrefix()}:${accountId}`));
}

const allowed = (admissions: readonly Admission[]): number => admissions.filter((a) => a.allowed).length;

describe('LeasedRateLimiter', () => {
  it('when the limit is 100 or less, then every request counts one point in Redis', async () => {
    const limiter = limiterOf(100);
    const accountId = randomUUID();
    const first = await limiter.admit(accountId);
    expect(first).toMatchObject({ allowed: true, remaining: 99 });
    await limiter.admit(accountId);
    expect(await counterOf(accountId)).toBe(2);
  });

  it('when the limit is large, then a lease of 1 % is counted in Redis at once and spent in process', async () => {
    const limiter = limiterOf(1000);
    const accountId = randomUUID();
    const admissions = [];
    for (let request = 0; request < 15; request += 1) admissions.push(await limiter.admit(accountId));
    expect(allowed(admissions)).toBe(15);
    expect(await counterOf(accountId)).toBe(20);
    expect(admissions.map((a) => (a.allowed ? a.remaining : -1))).toEqual(
      Array.from({ length: 15 }, (_, i) => 999 - i),
    );
    for (const admission of admissions) {
      expect(admission.resetMs).toBeGreaterThan(0);
      expect(admission.resetMs).toBeLessThanOrEqual(WINDOW_S * 1000);
    }
  });

  it('when many requests of one account arrive at once, then they share one lease at a time', async () => {
    const limiter = limiterOf(1000);
    const accountId = randomUUID();
    const admissions = await Promise.all(Array.from({ length: 50 }, () => limiter.admit(accountId)));
    expect(allowed(admissions)).toBe(50);
    expect(await counterOf(accountId)).toBe(50);
  });

  it('when two processes share an account, then together they admit exactly the limit', async () => {
    const [first, second] = [limiterOf(1000), limiterOf(1000)];
    const accountId = randomUUID();
    const admissions = await Promise.all(
      Array.from({ length: 1100 }, (_, index) => (index % 2 === 0 ? first : second).admit(accountId)),
    );
    expect(allowed(admissions)).toBe(1000);
    const refused = admissions.filter((a) => !a.allowed);
    expect(refused).toHaveLength(100);
    for (const refusal of refused) expect(refusal.resetMs).toBeGreaterThan(0);
  });

  it('when the last lease is cut short by the limit, then only the points below the limit are granted', async () => {
    const [first, second] = [limiterOf(250), limiterOf(250)];
    const accountId = randomUUID();
    // The first process takes 83 leases of 3 (249 points) and spends them all; the second finds 1 left.
    for (let request = 0; request < 249; request += 1) expect((await first.admit(accountId)).allowed).toBe(true);
    const last = [await second.admit(accountId), await second.admit(accountId)];
    expect(last.map((a) => a.allowed)).toEqual([true, false]);
    expect(last[0]).toMatchObject({ remaining: 0 });
    expect((await first.admit(accountId)).allowed).toBe(false);
  });

  it('when Redis cannot be reached, then admit rejects so the caller can fail open', async () => {
    const limiter = limiterOf(1000, await redis.unreachableClient());
    await expect(limiter.admit(randomUUID())).rejects.toThrow();
  });
});
