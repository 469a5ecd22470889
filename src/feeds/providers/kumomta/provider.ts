import { bodyText, type FeedProvider } from '../../feed-provider.js';
import { newKumoMtaCredentials, verifyKumoMta, type KumoMtaVerification } from './credentials.js';
import { KUMOMTA_SOURCE_IDS, mapKumoMta } from './mapping.js';

/**
 * KumoMTA's log hook, posting its JSON log records (one per request, or a batch), authenticated by
 * credentials the service generates for the feed.
 */
export const kumomta: FeedProvider<'kumomta', KumoMtaVerification> = {
  name: 'kumomta',
  title: 'KumoMTA',
  sourceIdNamespace: KUMOMTA_SOURCE_IDS,
  settings: {
    options: [],
    create() {
      const { username, password, stored } = newKumoMtaCredentials();
      return { verification: stored, shown: { username, password } };
    },
    hints: [
      'The password is shown only now; keep it secret.',
      "Post the log hook's JSON records to https://<host>/feeds/<id> with request:basic_auth(username, password) (or request:bearer_auth(password)).",
    ],
  },
  scopeSources: ['tag:<name>'],
  verify(verification, request) {
    verifyKumoMta(verification, request);
    return { text: bodyText(request), delivery: {} };
  },
  map: mapKumoMta,
};
