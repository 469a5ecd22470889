import { spawn } from 'node:child_process';

export interface RawAnswer {
  status: number;
  body: unknown;
}

// Runs in a process of its own: requests written by the server's own process reach it one turn of
// its event loop apart, never together, as they do from a load generator.
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
requests.forEach(({ path, token }, index) =>
  sockets[index].write('GET ' + path + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nAuthorization: Bearer ' + token + '\\r\\nConnection: close\\r\\n\\r\\n'),
);
process.stdout.write(JSON.stringify(await Promise.all(answers)));
`;

/**
 * GETs as a load generator sends them: from another process, one connection each, all opened first
 * and then every request written at once, so that they reach the server together.
 */
export async function simultaneousGets(
  baseUrl: string,
  requests: { path: string; token: string }[],
): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(baseUrl);
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', CLIENT, JSON.stringify({ host: hostname, port: Number(port), requests })],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the request process exited with ${code}`);
  return (JSON.parse(output) as string[]).map((text) => {
    const [head = '', body = ''] = text.split('\r\n\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
    return { status, body: body ? (JSON.parse(body) as unknown) : undefined };
  });
}
