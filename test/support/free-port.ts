import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * The kernel's range of ephemeral ports, which it hands to outgoing connections. A port of that
 * range that is free now may be a client's local port a moment later (the suite opens thousands of
 * connections), so a server that binds it seconds after it was picked can find it taken.
 */
function ephemeralRange(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low !== undefined && high !== undefined && low > 0 && high >= low) return { low, high };
  } catch {
    // No procfs: Linux's default range below.
  }
  return { low: 32_768, high: 60_999 };
}

/** Whether a server can listen on `port` of 127.0.0.1 right now. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * Ports of 10000 and above, outside the ephemeral range, where nothing listens now. The
 * search starts at a random place so that parallel test files rarely pick the same one. `alsoFree`
 * asks that `port + alsoFree` be free and outside that range as well (a Redis Cluster node's bus).
 */
export async function freePorts(count: number, alsoFree = 0): Promise<number[]> {
  const { low, high } = ephemeralRange();
  const usable = (port: number) => port >= 10_000 && port <= 65_535 && (port < low || port > high);
  const candidates: number[] = [];
  for (let port = 10_000; port <= 65_535; port += 1) {
    if (usable(port) && (alsoFree === 0 || usable(port + alsoFree))) candidates.push(port);
  }
  const ports: number[] = [];
  const start = Math.floor(Math.random() * candidates.length);
  for (let step = 0; step < candidates.length && ports.length < count; step += 1) {
    const port = candidates[(start + step) % candidates.length] as number;
    if ((await portFree(port)) && (alsoFree === 0 || (await portFree(port + alsoFree)))) ports.push(port);
  }
  if (ports.length < count) throw new Error(`no ${count} free ports outside the ephemeral range ${low}–${high}`);
  return ports;
}

/** A port nothing listens on right now on 127.0.0.1, outside the ephemeral range. */
export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error('no port');
  return port;
}
