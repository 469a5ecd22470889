import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { RunningServer } from '../../api/server.js';

export interface RawAnswer {
  status: number;
  body: unknown;
}

// Runs in a process of its own: requests written by the server's own process reach it one turn of
// its event loop apart, never together, as they do from a load generator. It opens every connection,
// says so, and writes the requests when told to.
const CLIENT = `
import net from 'node:net';
import { once } from 'node:events';
const { host, port, requests } = JSON.parse(process.argv[1]);
const sockets = requests.map(() => net.connect({ host, port, noDelay: true }));
await Promise.all(sockets.map((socket) => once(socket, 'connect')));
const answers = sockets.map(async (socket) => {
  const chunks = [];
  for await (const chunk of socket) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
});
process.stderr.write('connected\\n');
await once(process.stdin, 'data');
requests.forEach(({ path, token }, index) =>
  sockets[index].write('GET ' + path + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nAuthorization: Bearer ' + token + '\\r\\nConnection: close\\r\\n\\r\\n'),
);
process.stdout.write(JSON.stringify(await Promise.all(answers)));
`;

// Long enough for the other process to wake up and write every request, even on a busy machine.
const HOLD_MS = 500;

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
 * GETs as a load generator sends them to a busy server: from another process, one connection each,
 * all opened and taken in by the server first; then every request is written while this process
 * (which runs the server) is held busy, so that the server finds them all waiting when it next looks,
 * however slow the machine.
 */
export async function simultaneousGets(
  server: RunningServer,
  requests: { path: string; token: string }[],
): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(server.url);
  const accepted = accepting(server, requests.length);
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', CLIENT, JSON.stringify({ host: hostname, port: Number(port), requests })],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  let errors = '';
  const connected = new Promise<void>((resolve) =>
    child.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
      if (errors.includes('connected\n')) resolve();
    }),
  );
  const closed = once(child, 'close') as Promise<[number | null]>;
  const ready = Promise.all([connected, accepted]).then(() => true);
  if (!(await Promise.race([ready, closed.then(() => false)])))
    throw new Error(`the request process exited before connecting: ${errors}`);
  child.stdin.end('go\n');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, HOLD_MS);
  const [code] = await closed;
  if (code !== 0) throw new Error(`the request process exited with ${code}: ${errors}`);
  return (JSON.parse(output) as string[]).map((text) => {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    return { status, body: body ? (JSON.parse(body) as unknown) : undefined };
  });
}
