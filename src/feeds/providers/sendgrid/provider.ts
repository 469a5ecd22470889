import { FeedSettingsError } from '../../feed-errors.js';
import { bodyText, requiredOption, type FeedProvider } from '../../feed-provider.js';
import { mapSendGrid, SENDGRID_SOURCE_IDS } from './mapping.js';
import { sendGridPublicKey, verifySendGrid, type SendGridVerification } from './signature.js';

/** SendGrid's signed Event Webhook: a batch of events per request. */
export const sendgrid: FeedProvider<'sendgrid', SendGridVerification> = {
  name: 'sendgrid',
  title: 'SendGrid',
  sourceIdNamespace: SENDGRID_SOURCE_IDS,
  settings: {
    options: [{ key: 'publicKey', flags: '--public-key <base64>', description: 'the Event Webhook verification key' }],
    create(input) {
      const publicKey = requiredOption(input.publicKey, '--public-key <base64>', 'sendgrid');
      if (sendGridPublicKey(publicKey) === null) {
        throw new FeedSettingsError(
          '--public-key must be the Event Webhook verification key as SendGrid shows it: a base64 ECDSA P-256 public key.',
        );
      }
      return { verification: { public_key: publicKey }, shown: { public_key: publicKey } };
    },
    hints: ['Set it as the Event Webhook URL, with signed event webhook requests on.'],
  },
  scopeSources: ['asm-group', 'category', 'tag:<name>'],
  verify(verification, request) {
    verifySendGrid(verification, request);
    return { text: bodyText(request), delivery: {} };
  },
  map: mapSendGrid,
};
