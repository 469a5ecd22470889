import { bodyText, requiredOption, type FeedProvider } from '../../feed-provider.js';
import { mapMailgun, MAILGUN_SOURCE_IDS } from './mapping.js';
import { verifyMailgun, type MailgunVerification } from './signature.js';

/** Mailgun's JSON webhooks, signed with a token that must not be taken twice. */
export const mailgun: FeedProvider<'mailgun', MailgunVerification> = {
  name: 'mailgun',
  title: 'Mailgun',
  sourceIdNamespace: MAILGUN_SOURCE_IDS,
  settings: {
    options: [{ key: 'signingKey', flags: '--signing-key <key>', description: 'the HTTP webhook signing key' }],
    create(input) {
      return {
        verification: { signing_key: requiredOption(input.signingKey, '--signing-key <key>', 'mailgun') },
        shown: {},
      };
    },
    hints: ['Add it as the webhook URL for the permanent failure, temporary failure and spam complaint events.'],
  },
  scopeSources: ['tag', 'tag:<name>'],
  verify(verification, request) {
    const token = verifyMailgun(verification, request);
    return { text: bodyText(request), delivery: {}, replayToken: token };
  },
  map: mapMailgun,
};
