import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface ClientRateLimit {
  /** Counts one message begun by `clientAddress`; false once it is past its allowance for the minute. */
  allows(clientAddress: string): Promise<boolean>;
}

/**
 * Messages per client address a minute, counted in the process: the listener answers whatever Redis
 * does, and an MTA deferred by one process is deferred by any, since it comes back later either way.
 */
export function clientRateLimit(messagesPerMinute: number): ClientRateLimit {
  const limiter = new RateLimiterMemory({ points: messagesPerMinute, duration: 60 });
  return {
    async allows(clientAddress) {
      try {
        await limiter.consume(clientAddress);
        return true;
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return false;
        throw refusal;
      }
    },
  };
}
