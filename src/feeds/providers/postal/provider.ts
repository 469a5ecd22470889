import { FeedSettingsError } from '../../feed-errors.js';
import { bodyText, requiredOption, type FeedProvider } from '../../feed-provider.js';
import { mapPostal, POSTAL_SOURCE_IDS } from './mapping.js';
import { postalPublicKey, verifyPostal, type PostalVerification } from './signature.js';

/** Postal's webhooks, signed with the installation's RSA signing key. */
export const postal: FeedProvider<'postal', PostalVerification> = {
  name: 'postal',
  title: 'Postal',
  sourceIdNamespace: POSTAL_SOURCE_IDS,
  settings: {
    options: [
      {
        key: 'postalPublicKey',
        flags: '--postal-public-key <key>',
        description:
          'the public half of the signing key: the DKIM record `postal default-dkim-record` prints, PEM, or /.well-known/jwks.json',
      },
    ],
    create(input) {
      const given = requiredOption(input.postalPublicKey, '--postal-public-key <key>', 'postal');
      const key = postalPublicKey(given);
      if (key === null) {
        throw new FeedSettingsError(
          '--postal-public-key must be the public half of Postal’s RSA signing key: the DKIM record `postal default-dkim-record` prints (or its p= value), a PEM public key, or the JWK set of /.well-known/jwks.json.',
        );
      }
      return { verification: { public_key: key.export({ format: 'pem', type: 'spki' }).toString() }, shown: {} };
    },
    hints: ['Add it as a webhook of the mail server for MessageDeliveryFailed, MessageDelayed and MessageBounced.'],
  },
  scopeSources: ['tag'],
  verify(verification, request) {
    verifyPostal(verification, request);
    return { text: bodyText(request), delivery: {} };
  },
  map: mapPostal,
};
