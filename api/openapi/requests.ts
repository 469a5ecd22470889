import type { ZodMediaTypeObject, ZodRequestBody } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { JSON_TYPE } from './responses.js';

/** What the document says of a JSON request body beside its schema. */
export interface JsonRequestDoc {
  /** One example, or several by name in `examples`. */
  example?: unknown;
  examples?: ZodMediaTypeObject['examples'];
  /** Whether a request must carry the body: it must, unless this says otherwise. */
  required?: boolean;
  description?: string;
}

/** A JSON request body of an operation: its schema and examples, as `jsonAnswer` documents an answer. */
export function jsonRequest(schema: z.ZodType, doc: JsonRequestDoc): ZodRequestBody {
  const { required = true, description, ...examples } = doc;
  return {
    required,
    ...(description !== undefined && { description }),
    content: { [JSON_TYPE]: { schema, ...examples } },
  };
}

/** The media type of a mail message's bytes, as RFC 5322 writes them. */
export const MESSAGE_TYPE = 'message/rfc822';

/** A request body that is one mail message, verbatim. */
export function messageRequest(description: string, example: string): ZodRequestBody {
  return {
    required: true,
    description,
    content: { [MESSAGE_TYPE]: { schema: { type: 'string', format: 'binary' }, example } },
  };
}
