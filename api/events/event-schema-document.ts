import { eventJsonSchema } from '../../src/events/event-json-schema.js';
import type { Endpoint } from '../http/endpoints.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';
import type { EventsDeps } from './deps.js';

/** The job format as a JSON Schema, public like the OpenAPI document: it holds nothing of any account. */
export const eventSchemaEndpoint: Endpoint<EventsDeps> = {
  method: 'get',
  path: '/schema.json',
  access: 'public',
  doc: {
    operationId: 'eventSchema',
    tags: ['Events'],
    summary: 'The job format as a JSON Schema',
    description:
      'One bounce, complaint or reactivation event, as a JSON Schema (draft 2020-12): the data of a job on the `suppression-events` queue, and each item of `POST /events`. No API key.',
    responses: {
      200: { description: 'The schema.', content: { [JSON_TYPE]: { schema: { type: 'object' } } } },
      ...errorResponses('method_not_allowed'),
    },
  },
  handler: () => {
    const schema = eventJsonSchema();
    return (_req, res) => {
      res.json(schema);
    };
  },
};
