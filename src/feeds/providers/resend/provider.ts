import { FeedSettingsError } from '../../feed-errors.js';
import { bodyText, requiredOption, type FeedProvider } from '../../feed-provider.js';
import { mapResend, RESEND_SOURCE_IDS } from './mapping.js';
import { isSigningSecret, verifyResend, type ResendVerification } from './signature.js';

/** Resend's webhooks, signed with the Svix scheme. */
export const resend: FeedProvider<'resend', ResendVerification> = {
  name: 'resend',
  title: 'Resend',
  sourceIdNamespace: RESEND_SOURCE_IDS,
  settings: {
    options: [
      {
        key: 'signingSecret',
        flags: '--signing-secret <secret>',
        description: 'the webhook signing secret (whsec_...)',
      },
    ],
    create(input) {
      const secret = requiredOption(input.signingSecret, '--signing-secret <whsec_...>', 'resend');
      if (!isSigningSecret(secret)) {
        throw new FeedSettingsError(
          '--signing-secret must be the webhook signing secret Resend shows: whsec_ and base64.',
        );
      }
      return { verification: { signing_secret: secret }, shown: {} };
    },
    hints: ['Add it as a webhook endpoint for email.bounced and email.complained.'],
  },
  scopeSources: ['tag:<name>'],
  verify(verification, request) {
    // The Svix message id, which a retry of the same message keeps.
    return { text: bodyText(request), delivery: { id: verifyResend(verification, request) } };
  },
  map: mapResend,
};
