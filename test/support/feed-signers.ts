import { createHmac, createSign, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { once } from 'node:events';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';
import { Webhook } from 'standardwebhooks';

/**
 * Stand-ins for the providers' signing ends, with keys made here: each signs a request exactly as its
 * provider documents, so the service's verification is exercised with real algorithms.
 */

export interface SnsSigner {
  /** `host:port` of the loopback server that plays SNS: give it to FEEDS_SNS_EXTRA_CERT_HOSTS. */
  readonly host: string;
  readonly certUrl: string;
  /** The subscription-confirmation URLs SNS was asked for. */
  readonly confirmations: string[];
  /** How often the certificate was downloaded. */
  certificateRequests(): number;
  /** An SNS Notification carrying `message`, signed with SignatureVersion 1 or 2. */
  notification(topicArn: string, message: string, options?: SnsOptions): Record<string, string>;
  /** A SubscriptionConfirmation whose SubscribeURL points at this server. */
  subscriptionConfirmation(topicArn: string, options?: SnsOptions): Record<string, string>;
  close(): Promise<void>;
}

export interface SnsOptions {
  version?: '1' | '2';
  messageId?: string;
  subject?: string;
  certUrl?: string;
  /** The message's Timestamp, which SNS keeps when it retries. */
  timestamp?: string;
  /** For a confirmation: SubscriptionConfirmation (default) or UnsubscribeConfirmation. */
  type?: 'SubscriptionConfirmation' | 'UnsubscribeConfirmation';
}

function snsStringToSign(message: Record<string, string>, fields: string[]): string {
  return fields
    .filter((field) => message[field] !== undefined)
    .map((field) => `${field}\n${message[field]}\n`)
    .join('');
}

/** A self-signed RSA certificate served on loopback, as SNS serves its signing certificate. */
export async function startSnsSigner(): Promise<SnsSigner> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'sns.test.amazonaws.com' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
  });
  const confirmations: string[] = [];
  let certificateRequests = 0;
  const server: Server = http.createServer((req, res) => {
    if (req.url?.startsWith('/cert.pem')) {
      certificateRequests += 1;
      res.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(pems.cert);
    } else if (req.url?.startsWith('/confirm')) {
      confirmations.push(req.url);
      res.writeHead(200, { 'content-type': 'text/xml' }).end('<ConfirmSubscriptionResponse/>');
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  const certUrl = `http://${host}/cert.pem`;

  function signed(message: Record<string, string>, fields: string[], version: '1' | '2'): Record<string, string> {
    const signer = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
    signer.update(snsStringToSign(message, fields), 'utf8');
    return { ...message, SignatureVersion: version, Signature: signer.sign(pems.private, 'base64') };
  }

  return {
    host,
    certUrl,
    confirmations,
    certificateRequests: () => certificateRequests,
    notification(topicArn, message, options = {}) {
      const envelope: Record<string, string> = {
        Type: 'Notification',
        MessageId: options.messageId ?? randomUUID(),
        TopicArn: topicArn,
        Message: message,
        Timestamp: options.timestamp ?? new Date().toISOString(),
        SigningCertURL: options.certUrl ?? certUrl,
        UnsubscribeURL: `http://${host}/unsubscribe`,
        ...(options.subject === undefined ? {} : { Subject: options.subject }),
      };
      return signed(
        envelope,
        ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'],
        options.version ?? '1',
      );
    },
    subscriptionConfirmation(topicArn, options = {}) {
      const token = randomBytes(32).toString('hex');
      const envelope: Record<string, string> = {
        Type: options.type ?? 'SubscriptionConfirmation',
        MessageId: options.messageId ?? randomUUID(),
        Token: token,
        TopicArn: topicArn,
        Message: `You have chosen to subscribe to the topic ${topicArn}.`,
        SubscribeURL: `http://${host}/confirm?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topicArn)}&Token=${token}`,
        Timestamp: new Date().toISOString(),
        SigningCertURL: options.certUrl ?? certUrl,
      };
      const fields = ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
      return signed(envelope, fields, options.version ?? '1');
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** SendGrid's signed Event Webhook: an ECDSA P-256 key pair, the public half as SendGrid shows it. */
export function sendGridSigner() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64'),
    headers(body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
      const signature = sign('sha256', Buffer.from(`${timestamp}${body}`), privateKey).toString('base64');
      return {
        'X-Twilio-Email-Event-Webhook-Signature': signature,
        'X-Twilio-Email-Event-Webhook-Timestamp': String(timestamp),
      };
    },
  };
}

/** Mailgun's webhook body: the event data with a `signature` object made with the signing key. */
export function mailgunBody(
  signingKey: string,
  eventData: unknown,
  options: { timestamp?: number; token?: string } = {},
): string {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const token = options.token ?? randomBytes(25).toString('hex');
  const signature = createHmac('sha256', signingKey)
    .update(timestamp + token)
    .digest('hex');
  return JSON.stringify({ signature: { timestamp, token, signature }, 'event-data': eventData });
}

/** A Resend signing secret and its Svix signature headers. */
export function resendSigner(secret = `whsec_${randomBytes(24).toString('base64')}`) {
  const webhook = new Webhook(secret);
  return {
    secret,
    headers(
      body: string,
      options: { id?: string; timestamp?: Date; names?: 'svix' | 'webhook' } = {},
    ): Record<string, string> {
      const id = options.id ?? `msg_${randomBytes(12).toString('hex')}`;
      const timestamp = options.timestamp ?? new Date();
      const prefix = options.names ?? 'svix';
      return {
        [`${prefix}-id`]: id,
        [`${prefix}-timestamp`]: String(Math.floor(timestamp.getTime() / 1000)),
        [`${prefix}-signature`]: webhook.sign(id, timestamp, body),
      };
    },
  };
}

/** The Authorization header of HTTP Basic credentials. */
export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}
