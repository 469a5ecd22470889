import type { Provider } from './feed-mapping.js';
import type { VerificationOf } from './feed.js';
import { newPostmarkCredentials } from './postmark-credentials.js';
import { isSigningSecret } from './resend-signature.js';
import { sendGridPublicKey } from './sendgrid-signature.js';

/** What `feeds create` is given, beyond the account and provider. */
export interface FeedSettingsInput {
  topicArns?: readonly string[];
  publicKey?: string;
  signingKey?: string;
  signingSecret?: string;
}

/** A new feed's verification, and what to show its creator: the provider's fields of `--json`. */
export interface FeedSettings<P extends Provider = Provider> {
  verification: VerificationOf[P];
  shown: Record<string, string | string[]>;
}

export class FeedSettingsError extends Error {
  override name = 'FeedSettingsError';
}

const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;

function required(value: string | undefined, option: string, provider: Provider): string {
  const trimmed = value?.trim();
  if (!trimmed) throw new FeedSettingsError(`A ${provider} feed needs ${option}.`);
  return trimmed;
}

/** Checks the options a provider needs and turns them into what its requests are verified with. */
export function feedSettings(provider: Provider, input: FeedSettingsInput): FeedSettings {
  switch (provider) {
    case 'ses': {
      const topicArns = [...new Set((input.topicArns ?? []).map((arn) => arn.trim()))];
      if (topicArns.length === 0) throw new FeedSettingsError('An ses feed needs --topic-arn <arn> (one or more).');
      const wrong = topicArns.find((arn) => !TOPIC_ARN.test(arn));
      if (wrong !== undefined) {
        throw new FeedSettingsError(`"${wrong}" is not an SNS topic ARN (arn:aws:sns:<region>:<account>:<topic>).`);
      }
      return { verification: { topic_arns: topicArns }, shown: { topic_arns: topicArns } };
    }
    case 'sendgrid': {
      const publicKey = required(input.publicKey, '--public-key <base64>', provider);
      if (sendGridPublicKey(publicKey) === null) {
        throw new FeedSettingsError(
          '--public-key must be the Event Webhook verification key as SendGrid shows it: a base64 ECDSA P-256 public key.',
        );
      }
      return { verification: { public_key: publicKey }, shown: { public_key: publicKey } };
    }
    case 'postmark': {
      const { username, password, stored } = newPostmarkCredentials();
      return { verification: stored, shown: { username, password } };
    }
    case 'mailgun':
      return { verification: { signing_key: required(input.signingKey, '--signing-key <key>', provider) }, shown: {} };
    case 'resend': {
      const secret = required(input.signingSecret, '--signing-secret <whsec_...>', provider);
      if (!isSigningSecret(secret)) {
        throw new FeedSettingsError(
          '--signing-secret must be the webhook signing secret Resend shows: whsec_ and base64.',
        );
      }
      return { verification: { signing_secret: secret }, shown: {} };
    }
  }
}

/** The options of other providers given by mistake, named so the command can refuse them. */
export function foreignOptions(provider: Provider, input: FeedSettingsInput): string[] {
  const owners: [keyof FeedSettingsInput, string, Provider][] = [
    ['topicArns', '--topic-arn', 'ses'],
    ['publicKey', '--public-key', 'sendgrid'],
    ['signingKey', '--signing-key', 'mailgun'],
    ['signingSecret', '--signing-secret', 'resend'],
  ];
  return owners
    .filter(([key, , owner]) => owner !== provider && input[key] !== undefined && input[key]?.length !== 0)
    .map(([, option]) => option);
}
