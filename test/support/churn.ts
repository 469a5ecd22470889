import type { ApiClient } from './api-client.js';

/**
 * Adds and removes these addresses through the processes in turn, one request at a time, until
 * stopped: the writers and removals that run beside a test's own. Resolves once the last request
 * in flight is answered.
 */
export function churn(processes: readonly ApiClient[], emails: readonly string[]): { stop(): Promise<void> } {
  let stopped = false;
  const running = (async () => {
    for (let index = 0; !stopped; index += 1) {
      const email = emails[index % emails.length] as string;
      const api = processes[index % processes.length] as ApiClient;
      if (index % 3 === 2) await api.delete(`/suppressions/${encodeURIComponent(email)}`);
      else await api.post('/suppressions', { email });
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}
