import { readFile } from 'node:fs/promises';

/** Linux's clock tick for /proc times (USER_HZ), 100 on every mainstream kernel build. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) another process has used so far, in milliseconds, from Linux
 * `/proc/<pid>/stat`; undefined where there is no /proc or the process is gone.
 */
export async function processCpuMs(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const userTicks = Number(fields[11]);
    const systemTicks = Number(fields[12]);
    if (!Number.isFinite(userTicks) || !Number.isFinite(systemTicks)) return undefined;
    return ((userTicks + systemTicks) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * CPU time summed over several stretches of work: a server's (from /proc) and this process's own,
 * where the load generator runs. Tells where a request's time goes when the ratio moves.
 */
export class CpuTally {
  private serverMs = 0;
  private clientUs = 0;
  private known = true;

  constructor(private readonly serverPid: number) {}

  async during<T>(work: () => Promise<T>): Promise<T> {
    const serverBefore = await processCpuMs(this.serverPid);
    const clientBefore = process.cpuUsage();
    const result = await work();
    const client = process.cpuUsage(clientBefore);
    const serverAfter = await processCpuMs(this.serverPid);
    this.clientUs += client.user + client.system;
    if (serverBefore === undefined || serverAfter === undefined) this.known = false;
    else this.serverMs += serverAfter - serverBefore;
    return result;
  }

  /** `612 µs server + 180 µs load generator` per request. */
  describe(requests: number): string {
    if (requests === 0) return 'no requests';
    const client = `${Math.round(this.clientUs / requests)} µs load generator`;
    return this.known ? `${Math.round((this.serverMs * 1000) / requests)} µs server + ${client}` : client;
  }
}
