import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resend } from 'resend';

export interface ReceivedDelivery {
  headers: IncomingHttpHeaders;
  body: string;
  /** What `resend.webhooks.verify` made of it, or why it refused it. */
  verified: { ok: true; payload: unknown } | { ok: false; reason: string };
  /** The status the receiver answered. */
  status: number;
}

export interface WebhookReceiver {
  url: string;
  /** Every request, in arrival order. */
  readonly received: ReceivedDelivery[];
  /** The secret deliveries are verified with; set once the webhook exists. */
  secret: string;
  /** Decides each answer: a status, or 'hang' to never answer. Default 200. */
  answer: (delivery: Omit<ReceivedDelivery, 'status'>, index: number) => number | 'hang';
  /** The requests the receiver answered 2xx, each webhook-id once (what a deduping receiver keeps). */
  accepted(): ReceivedDelivery[];
  close(): Promise<void>;
}

const resend = new Resend('re_unused');

/** A customer's endpoint on loopback: checks every request with Resend's SDK, as a customer would. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const hanging = new Set<() => void>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    secret: '',
    answer: () => 200,
    accepted() {
      const seen = new Set<string>();
      return this.received.filter((delivery) => {
        const id = String(delivery.headers['webhook-id']);
        if (delivery.status < 200 || delivery.status >= 300 || seen.has(id)) return false;
        seen.add(id);
        return true;
      });
    },
    close: async () => {
      for (const release of hanging) release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: ReceivedDelivery['verified'];
      try {
        const payload = resend.webhooks.verify({
          payload: body,
          headers: {
            id: String(req.headers['svix-id']),
            timestamp: String(req.headers['svix-timestamp']),
            signature: String(req.headers['svix-signature']),
          },
          webhookSecret: receiver.secret,
        });
        verified = { ok: true, payload };
      } catch (error) {
        verified = { ok: false, reason: error instanceof Error ? error.message : String(error) };
      }
      const answer = receiver.answer({ headers: req.headers, body, verified }, receiver.received.length);
      if (answer === 'hang') {
        receiver.received.push({ headers: req.headers, body, verified, status: 0 });
        hanging.add(() => res.destroy());
        return;
      }
      receiver.received.push({ headers: req.headers, body, verified, status: answer });
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer >= 300 ? `receiver says ${answer}` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
