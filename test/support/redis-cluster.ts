import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import type { RedisEndpoint } from '../../src/redis.js';
import { freePorts } from './free-port.js';
import { sleep } from './sleep.js';

/** A node dies when its peers have not heard from it for this long; its replica then takes over. */
export const NODE_TIMEOUT_MS = 2000;
const MASTERS = 3;
/** A node's cluster bus listens on its port + 10000. */
const BUS_OFFSET = 10_000;

export interface ClusterNode {
  port: number;
  process: ChildProcess;
}

export interface RedisCluster {
  /** Where the service finds it: REDIS_URL plus the six nodes as REDIS_CLUSTER_NODES would give them. */
  readonly endpoint: RedisEndpoint;
  readonly nodes: readonly ClusterNode[];
  /**
   * SIGKILLs a master that has a replica (the one serving `key`'s slot, when given) and resolves
   * once the replica has been promoted and the cluster is whole again, with how long that took.
   */
  killMaster(key?: string): Promise<{ port: number; failoverMs: number }>;
  /** The replica of the master that serves `key`'s slot. */
  replicaOf(key: string): Promise<ClusterNode>;
  /** SIGKILLs every node still running: the cluster is gone. */
  killAll(): Promise<void>;
  /** Stops every node and removes their files. */
  stop(): Promise<void>;
}

function run(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/** Asks one node, on a connection of its own that gives up at once when the node is gone. */
async function ask<T>(port: number, question: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await question(client);
  } finally {
    client.disconnect();
  }
}

async function until(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Redis Cluster: ${what} not reached in ${timeoutMs} ms`);
    await sleep(100);
  }
}

interface NodeLine {
  id: string;
  port: number;
  master: boolean;
  failed: boolean;
  masterId: string;
  slots: string[];
}

/** `CLUSTER NODES`, one line a node: id, address, flags, master id, ..., slots. */
function parseNodes(text: string): NodeLine[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id = '', address = '', flags = '', masterId = '', , , , , ...slots] = line.split(' ');
      return {
        id,
        port: Number(/:(\d+)@/.exec(address)?.[1]),
        master: flags.split(',').includes('master'),
        failed: /fail/.test(flags),
        masterId,
        slots,
      };
    });
}

async function clusterNodes(port: number): Promise<NodeLine[]> {
  return parseNodes(await ask(port, (client) => client.cluster('NODES') as Promise<string>));
}

/**
 * Every node given says the cluster is ok, with every slot served by one of `masters` live masters,
 * and none by the node `gone` (a killed master), which it has marked failed.
 */
async function whole(ports: readonly number[], masters: number, gone?: string): Promise<boolean> {
  for (const port of ports) {
    const info = await ask(port, (client) => client.cluster('INFO'));
    if (!info.includes('cluster_state:ok') || !info.includes('cluster_slots_ok:16384')) return false;
    const map = await clusterNodes(port);
    if (map.filter((node) => node.master && !node.failed && node.slots.length > 0).length !== masters) return false;
    if (map.some((node) => node.id === gone && (!node.failed || node.slots.length > 0))) return false;
  }
  return true;
}

/**
 * A Redis Cluster of three masters and three replicas from the local `redis-server`, on free ports
 * of 127.0.0.1, in a temporary directory; nothing is written to disk but the nodes' cluster files.
 */
export async function startRedisCluster(): Promise<RedisCluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sl-redis-cluster-'));
  const ports = await freePorts(MASTERS * 2, BUS_OFFSET);
  const nodes: ClusterNode[] = [];
  // Should the test process end without stop(), its nodes go with it.
  const killLeftovers = (): void => {
    for (const node of nodes) if (node.process.exitCode === null) node.process.kill('SIGKILL');
  };
  process.once('exit', killLeftovers);

  const killNode = async (node: ClusterNode): Promise<void> => {
    if (node.process.exitCode !== null || node.process.signalCode !== null) return;
    const exited = once(node.process, 'exit');
    node.process.kill('SIGKILL');
    await exited;
  };
  const stop = async (): Promise<void> => {
    await Promise.all(nodes.map(killNode));
    process.removeListener('exit', killLeftovers);
    await rm(dir, { recursive: true, force: true });
  };

  try {
    for (const port of ports) {
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          path.join(dir, `nodes-${port}.conf`),
          '--cluster-node-timeout',
          String(NODE_TIMEOUT_MS),
          '--appendonly',
          'no',
          '--save',
          '',
          '--dir',
          dir,
          '--daemonize',
          'no',
          '--loglevel',
          'warning',
          // A master waits 5 s by default before it sends a replica its first copy, in case more
          // replicas come; each master here has one, so waiting only delays the cluster's start.
          '--repl-diskless-sync-delay',
          '0',
        ],
        { stdio: 'ignore' },
      );
      nodes.push({ port, process: child });
    }
    await until('every node answering PING', 10_000, async () => {
      for (const port of ports) await ask(port, (client) => client.ping());
      return true;
    });
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
    await until('cluster_state:ok on every node', 30_000, () => whole(ports, MASTERS));
    await until('every node seeing each master with its replica, in sync', 30_000, async () => {
      for (const port of ports) {
        const replicas = (await clusterNodes(port)).filter((node) => !node.master);
        if (replicas.length !== MASTERS) return false;
      }
      for (const replica of (await clusterNodes(ports[0]!)).filter((node) => !node.master)) {
        const replication = await ask(replica.port, (client) => client.info('replication'));
        if (!replication.includes('master_link_status:up')) return false;
      }
      return true;
    });
  } catch (error) {
    await stop();
    throw error;
  }

  const running = (): number[] =>
    nodes.filter((node) => node.process.exitCode === null && node.process.signalCode === null).map((node) => node.port);

  return {
    endpoint: {
      url: `redis://127.0.0.1:${ports[0]}`,
      clusterNodes: ports.map((port) => ({ host: '127.0.0.1', port })),
    },
    nodes,
    async killMaster(key) {
      const [witness] = running();
      const map = await clusterNodes(witness!);
      const slot = key === undefined ? undefined : await ask(witness!, (client) => client.cluster('KEYSLOT', key));
      const master = map.find(
        (node) =>
          node.master &&
          !node.failed &&
          map.some((other) => other.masterId === node.id && !other.failed) &&
          (slot === undefined || node.slots.some((range) => covers(range, slot))),
      );
      const victim = nodes.find((node) => node.port === master?.port);
      if (!master || !victim) throw new Error('Redis Cluster: no master with a live replica to kill');
      const started = Date.now();
      await killNode(victim);
      await until('a replica promoted in place of the killed master', 30_000, () =>
        whole(running(), MASTERS, master.id),
      );
      return { port: victim.port, failoverMs: Date.now() - started };
    },
    async replicaOf(key) {
      const [witness] = running();
      const map = await clusterNodes(witness!);
      const slot = await ask(witness!, (client) => client.cluster('KEYSLOT', key));
      const master = map.find((node) => node.master && node.slots.some((range) => covers(range, slot)));
      const replica = map.find((node) => node.masterId === master?.id && !node.failed);
      const found = nodes.find((node) => node.port === replica?.port);
      if (!found) throw new Error(`Redis Cluster: no live replica serves the slot of ${key}`);
      return found;
    },
    async killAll() {
      await Promise.all(nodes.map(killNode));
    },
    stop,
  };
}

function covers(range: string, slot: number): boolean {
  const [from, to = from] = range.split('-').map(Number);
  return from !== undefined && to !== undefined && slot >= from && slot <= to;
}

/** For the whole test file: one cluster, stopped (every node killed, its files removed) afterwards. */
export function useRedisCluster(): RedisCluster {
  const state: { cluster?: RedisCluster } = {};
  beforeAll(async () => {
    state.cluster = await startRedisCluster();
  });
  afterAll(async () => {
    await state.cluster?.stop();
  });
  const ready = (): RedisCluster => {
    if (!state.cluster) throw new Error('useRedisCluster(): the cluster runs only inside tests and hooks');
    return state.cluster;
  };
  return {
    get endpoint() {
      return ready().endpoint;
    },
    get nodes() {
      return ready().nodes;
    },
    killMaster: (key) => ready().killMaster(key),
    replicaOf: (key) => ready().replicaOf(key),
    killAll: () => ready().killAll(),
    stop: () => ready().stop(),
  };
}
