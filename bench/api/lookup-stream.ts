/** Streams of lookups of existing addresses, run for windows of time or of requests. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiBench } from './api-blocks.js';
import { seededEmail } from './seed.js';

/** A stretch of observation: at least `ms`, and at least `requests` more lookups. */
export interface Window {
  ms: number;
  requests: number;
}

export interface Lookup {
  token: string;
  email: string;
}

/** Addresses the seed put on the keyed accounts' lists, each with its account's key. */
function existingLookups(bench: ApiBench, count: number): Lookup[] {
  const { accounts, keyedAccounts, lookupRows } = bench.sizes;
  const perAccount = Math.floor(lookupRows / accounts);
  return Array.from({ length: count }, (_, index) => {
    const key = index % keyedAccounts;
    const row = Math.floor(index / keyedAccounts) % perAccount;
    return { token: bench.tokens[key] as string, email: seededEmail(key + accounts * row) };
  });
}

/** GET /suppressions/{email}: its status, or 0 when it got no answer. */
export async function lookup(url: string, { token, email }: Lookup): Promise<number> {
  try {
    const response = await fetch(`${url}/suppressions/${encodeURIComponent(email)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * `workers` lookups at a time of addresses that exist, until `stop()`: how many, and how many were
 * not 200. `run(window)` resolves once the window's time has passed and its requests were answered.
 */
export function lookupStream(bench: ApiBench, workers: number) {
  const lookups = existingLookups(bench, 2000);
  let next = 0;
  let running = true;
  const counts = { requests: 0, failed: 0 };
  const waiting: { requests: number; reached: () => void }[] = [];
  const done = Promise.all(
    Array.from({ length: workers }, async () => {
      while (running) {
        const status = await lookup(bench.service.url, lookups[next++ % lookups.length] as Lookup);
        counts.requests += 1;
        if (status !== 200) counts.failed += 1;
        for (const waiter of waiting.filter(({ requests }) => counts.requests >= requests)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.reached();
        }
      }
    }),
  );
  return {
    async run({ ms, requests }: Window): Promise<void> {
      const target = counts.requests + requests;
      await Promise.all([
        sleep(ms),
        new Promise<void>((reached) => {
          if (counts.requests >= target) reached();
          else waiting.push({ requests: target, reached });
        }),
      ]);
    },
    async stop() {
      running = false;
      await done;
      return counts;
    },
  };
}
