import { verify } from 'node:crypto';
import { FeedVerificationError } from '../feed-errors.js';
import type { SnsClient } from './certificates.js';
import { snsStringToSign, type SnsEnvelope } from './envelope.js';

const ALGORITHMS: Record<string, string> = { '1': 'sha1', '2': 'sha256' };

/**
 * An SNS message is trusted when its topic is one of the feed's `topicArns` and its signature,
 * SHA1withRSA (version 1) or SHA256withRSA (version 2) over the documented fields, verifies with
 * SNS's certificate. SNS keeps a message's Timestamp when it retries, so age is not a reason to refuse.
 */
export async function verifySns(topicArns: readonly string[], envelope: SnsEnvelope, sns: SnsClient): Promise<void> {
  // The topic first: a message of another topic costs no certificate download.
  if (!topicArns.includes(envelope.TopicArn)) {
    throw new FeedVerificationError('topic', 'the message is from a topic this feed does not take');
  }
  const algorithm = ALGORITHMS[envelope.SignatureVersion ?? ''];
  if (!envelope.Signature || !envelope.SigningCertURL || algorithm === undefined) {
    throw new FeedVerificationError(
      'signature',
      'the message has no Signature, SigningCertURL and SignatureVersion 1 or 2',
    );
  }
  const certificate = await sns.certificate(envelope.SigningCertURL);
  let valid: boolean;
  try {
    valid = verify(
      algorithm,
      Buffer.from(snsStringToSign(envelope), 'utf8'),
      certificate.publicKey,
      Buffer.from(envelope.Signature, 'base64'),
    );
  } catch {
    valid = false;
  }
  if (!valid) throw new FeedVerificationError('signature', 'the signature does not match the message');
}
