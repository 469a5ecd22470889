import { bodyText, type FeedProvider } from '../../feed-provider.js';
import { newPostmarkCredentials, verifyPostmark, type PostmarkVerification } from './credentials.js';
import { mapPostmark, POSTMARK_SOURCE_IDS } from './mapping.js';

/** Postmark's webhooks, authenticated by Basic credentials the service generates for the feed. */
export const postmark: FeedProvider<'postmark', PostmarkVerification> = {
  name: 'postmark',
  title: 'Postmark',
  sourceIdNamespace: POSTMARK_SOURCE_IDS,
  settings: {
    options: [],
    create() {
      const { username, password, stored } = newPostmarkCredentials();
      return { verification: stored, shown: { username, password } };
    },
    hints: [
      'The password is shown only now; keep it secret.',
      'Set it as the webhook URL with the credentials above as Basic auth: https://<username>:<password>@<host>/feeds/<id>.',
    ],
  },
  scopeSources: ['stream', 'tag:<name>'],
  verify(verification, request) {
    verifyPostmark(verification, request);
    return { text: bodyText(request), delivery: {} };
  },
  map: mapPostmark,
};
