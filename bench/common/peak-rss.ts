import { readFile } from 'node:fs/promises';

/**
 * Follows another process's peak resident memory (Linux `VmHWM`, the high-water mark the kernel
 * keeps), reading it every `intervalMs` until `stop`; the last reading before exit is the peak.
 */
export function followPeakRss(pid: number, intervalMs = 100): { stop(): Promise<number> } {
  let peakKb = 0;
  const read = async (): Promise<void> => {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
      peakKb = Math.max(peakKb, kb);
    } catch {
      // The process has exited: the last reading stands.
    }
  };
  const timer = setInterval(() => void read(), intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await read();
      return peakKb / 1024;
    },
  };
}
