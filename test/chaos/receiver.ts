/**
 * The chaos suite's webhook endpoint on loopback: verifies every delivery's signature as a
 * customer would, and keeps which addresses were announced added, and how often each delivery came.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ChaosReceiver {
  url: string;
  /** The signing secret, set once the webhook exists. */
  secret: string;
  /** Addresses announced by a verified `suppression.added`. */
  readonly added: Set<string>;
  /** Verified deliveries, counting each `webhook-id` once, and those that came again. */
  readonly deliveries: number;
  readonly redelivered: number;
  /** Requests whose signature did not verify. */
  readonly forged: number;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += (chunk as Buffer).toString('utf8');
  return body;
}

export async function startChaosReceiver(): Promise<ChaosReceiver> {
  const seen = new Set<string>();
  const state = { secret: '', redelivered: 0, forged: 0 };
  const added = new Set<string>();
  const server = createServer((req, res) => {
    void bodyOf(req).then((body) => {
      try {
        const payload = new Webhook(state.secret).verify(body, {
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        }) as { type: string; data: { email: string } };
        const id = String(req.headers['webhook-id']);
        if (seen.has(id)) state.redelivered += 1;
        seen.add(id);
        if (payload.type === 'suppression.added') added.add(payload.data.email);
        res.writeHead(200).end();
      } catch {
        state.forged += 1;
        res.writeHead(400).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get secret() {
      return state.secret;
    },
    set secret(value: string) {
      state.secret = value;
    },
    added,
    get deliveries() {
      return seen.size;
    },
    get redelivered() {
      return state.redelivered;
    },
    get forged() {
      return state.forged;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
