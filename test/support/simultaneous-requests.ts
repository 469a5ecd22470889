import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { RunningServer } from '../../api/server.js';

export interface RawAnswer {
  status: number;
  body: unknown;
}

// Runs on a thread of its own: requests written by the server's own thread reach it one turn of its
// event loop apart, never together, as they do from a load generator. It opens every connection and
// says so; told to, it writes every request and, once the kernel has them all, raises `written`.
const CLIENT = `
const net = require('node:net');
const { parentPort, workerData } = require('node:worker_threads');
const { host, port, requests, flag } = workerData;
const written = new Int32Array(flag);
const sockets = requests.map(() => net.connect({ host, port, noDelay: true }));
const answers = sockets.map(async (socket) => {
  const chunks = [];
  for await (const chunk of socket) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
});
Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once('connect', resolve)))).then(() =>
  parentPort.postMessage('connected'),
);
parentPort.once('message', async () => {
  await Promise.all(
    requests.map(({ path, token }, index) => new Promise((resolve) => sockets[index].write(
      'GET ' + path + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nAuthorization: Bearer ' + token + '\\r\\nConnection: close\\r\\n\\r\\n',
      resolve,
    ))),
  );
  Atomics.store(written, 0, 1);
  Atomics.notify(written, 0);
  parentPort.postMessage(await Promise.all(answers));
});
`;

// Only a thread that died before writing keeps the server's thread waiting this long.
const WRITTEN_WITHIN_MS = 30_000;

/** Resolves once the server has taken in `count` more connections. */
function accepting(server: RunningServer, count: number): Promise<void> {
  return new Promise((resolve) => {
    let left = count;
    const onConnection = () => {
      left -= 1;
      if (left > 0) return;
      server.server.off('connection', onConnection);
      resolve();
    };
    server.server.on('connection', onConnection);
  });
}

/**
 * GETs as a load generator sends them to a busy server: from another thread, one connection each,
 * all opened and taken in by the server first; then every request is written while this thread
 * (which runs the server) is held, until the other says the kernel has every request, so that the
 * server finds them all waiting when it next looks, however slow the machine.
 */
export async function simultaneousGets(
  server: RunningServer,
  requests: { path: string; token: string }[],
): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(server.url);
  const accepted = accepting(server, requests.length);
  const flag = new SharedArrayBuffer(4);
  const client = new Worker(CLIENT, { eval: true, workerData: { host: hostname, port: Number(port), requests, flag } });
  try {
    // `once` rejects with the thread's error, should it fail first.
    await Promise.all([once(client, 'message'), accepted]);
    const answered = once(client, 'message') as Promise<[string[]]>;
    client.postMessage('go');
    if (Atomics.wait(new Int32Array(flag), 0, 0, WRITTEN_WITHIN_MS) === 'timed-out') {
      throw new Error(`the requests were not written within ${WRITTEN_WITHIN_MS / 1000} s`);
    }
    const [texts] = await answered;
    return texts.map((text) => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      return { status, body: body ? (JSON.parse(body) as unknown) : undefined };
    });
  } finally {
    await client.terminate();
  }
}
