import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { allowlistFeature } from './allowlist/feature.js';
import { bouncesFeature } from './bounces/feature.js';
import { consoleSessionFeature } from './console/session-feature.js';
import { eventsFeature } from './events/feature.js';
import { feedsFeature } from './feeds/feature.js';
import { messagesFeature } from './messages/feature.js';
import { documentPath, operationsOf, type Feature } from './http/endpoints.js';
import { BEARER_SECURITY } from './openapi/responses.js';
import { opsFeature } from './ops/feature.js';
import { returnPathsFeature } from './return-paths/feature.js';
import { settingsFeature } from './settings/feature.js';
import { suppressionsFeature } from './suppressions/feature.js';
import { unsubscribeLinksFeature, unsubscribePageFeature } from './unsubscribe/feature.js';
import { webhooksFeature } from './webhooks/feature.js';

/**
 * Every feature of the API, each in its folder; the order is the document's. The collector sits
 * above them all: a feature imports the helpers of `openapi/`, never this.
 */
const features: readonly Feature<never>[] = [
  suppressionsFeature,
  webhooksFeature,
  settingsFeature,
  bouncesFeature,
  eventsFeature,
  allowlistFeature,
  unsubscribeLinksFeature,
  unsubscribePageFeature,
  returnPathsFeature,
  messagesFeature,
  consoleSessionFeature,
  feedsFeature,
  opsFeature,
];

export const routes: RouteConfig[] = features.flatMap((feature) => operationsOf(feature));

/** The operations a `sending_access` key may call, as the key's scheme describes them. */
const sendingOperations = features.flatMap((feature) =>
  feature.endpoints
    .filter((endpoint) => endpoint.access === 'sending')
    .map((endpoint) => `\`${endpoint.method.toUpperCase()} ${documentPath(feature.mountPath, endpoint.path)}\``),
);

function buildRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: `An API key: \`Authorization: Bearer <API_KEY>\`. Every endpoint takes a \`full_access\` key; ${sendingOperations.join(' and ')} also take a \`sending_access\` key.`,
  });
  registry.registerComponent('securitySchemes', 'consoleSession', {
    type: 'apiKey',
    in: 'cookie',
    name: 'sl_console_session',
    description:
      'The console’s session cookie, set by `POST /console/session`; requests that change something also carry `X-CSRF-Token`.',
  });
  registry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: '`Authorization: Bearer <METRICS_TOKEN>`, required by `/metrics` only when `METRICS_TOKEN` is set.',
  });
  for (const route of routes) registry.registerPath(route);
  return registry;
}

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

let cached: OpenApiDocument | undefined;

/** The OpenAPI 3.1 document, generated once from the zod schemas. */
export function openApiDocument(): OpenApiDocument {
  cached ??= new OpenApiGeneratorV31(buildRegistry().definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Suppression List API',
      version: '0.1.0',
      description:
        'The suppression list of an email-sending service: addresses that must not be mailed after a bounce, a complaint or a manual decision.',
    },
    security: BEARER_SECURITY,
    tags: [
      { name: 'Suppressions' },
      {
        name: 'Webhooks',
        description:
          'Change events of the account’s list, posted to endpoints of its own and signed as Resend signs its webhooks; see docs/webhooks.md.',
      },
      {
        name: 'Settings',
        description:
          'The account’s suppression policy: a soft-bounce threshold and expiry per origin; see docs/events.md.',
      },
      {
        name: 'Console',
        description:
          'The web console’s session: an API key exchanged for a cookie; see docs/console.md. Its pages call the `/suppressions` operations at `/console/api/suppressions`.',
      },
      {
        name: 'Events',
        description:
          'Bounce and complaint events from any mail system, in the job format the workers take; see docs/events.md.',
      },
      {
        name: 'Return paths',
        description:
          'Signed VERP return paths, so that a bounce or a complaint is known to be about the recipient it names; see docs/mail.md.',
      },
      {
        name: 'Messages',
        description:
          'Raw bounces (delivery status notifications), complaints (ARF reports) and automatic replies, as mail servers send them; see docs/mail.md.',
      },
      { name: 'Operations', description: 'Health, metrics and this reference; no API key.' },
    ],
  });
  return cached;
}
