import type { IncomingMessage, ServerResponse } from 'node:http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { Express } from 'express';
import { openApiDocument, type OpenApiDocument } from '../../api/openapi-document.js';

/** One documented successful answer: an operation and one of its 2xx statuses. */
export interface DocumentedAnswer {
  method: string;
  /** The document's path template, e.g. `/suppressions/{suppression}`. */
  path: string;
  status: number;
  /** The media types the document gives the answer; none for a 204. */
  mediaTypes: string[];
}

const JSON_TYPE = 'application/json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** The console mounts the `/suppressions`, `/settings` and `/bounces` routers again under it: the same operations. */
const CONSOLE_API = '/console/api/';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

interface Template {
  path: string;
  pattern: RegExp;
  /** Fixed segments, so `/suppressions/check` is preferred to `/suppressions/{suppression}`. */
  literals: number;
}

export interface ContractChecker {
  /** Every (method, path, 2xx status) of the document. */
  readonly documented: DocumentedAnswer[];
  /** The documented path a request path is answered by, or undefined when none is. */
  templateOf(method: string, requestPath: string): string | undefined;
  /**
   * Why a successful answer does not match the document, or null when it does (or is not JSON, or
   * answers an undocumented path, which `openapi.test.ts` catches).
   */
  problemOf(answer: {
    method: string;
    path: string;
    status: number;
    contentType: string | null;
    body: unknown;
  }): string | null;
}

function templatesOf(document: OpenApiDocument): Template[] {
  return Object.keys(document.paths ?? {})
    .map((path) => {
      const segments = path.split('/').slice(1);
      const source = segments
        .map((segment) => (/^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      return {
        path,
        pattern: new RegExp(`^/${source}$`, 'i'),
        literals: segments.filter((segment) => !segment.startsWith('{')).length,
      };
    })
    .sort((a, b) => b.literals - a.literals);
}

const isJson = (contentType: string | null) => contentType !== null && /^application\/json(;|$)/i.test(contentType);

/** A checker of answers against `document` (the app's own, by default). */
export function contractChecker(document: OpenApiDocument = openApiDocument()): ContractChecker {
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const templates = templatesOf(document);
  // OpenAPI 3.1 schemas are JSON Schema 2020-12; `example` and the like are annotations it ignores.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  formats.default(ajv);
  const validators = new Map<string, ValidateFunction>();

  const operationOf = (method: string, path: string): Operation | undefined => paths[path]?.[method.toLowerCase()];

  const documented: DocumentedAnswer[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^2\d\d$/.test(status)) continue;
        documented.push({
          method: method.toUpperCase(),
          path,
          status: Number(status),
          mediaTypes: Object.keys(response.content ?? {}),
        });
      }
    }
  }

  function validatorOf(method: string, path: string, status: number): ValidateFunction | undefined {
    const key = `${method} ${path} ${status}`;
    const known = validators.get(key);
    if (known) return known;
    const schema = operationOf(method, path)?.responses?.[String(status)]?.content?.[JSON_TYPE]?.schema;
    if (schema === undefined) return undefined;
    // The schema's `$ref`s point into the document's components: they are resolved from the same root.
    const validate = ajv.compile({ ...(schema as object), components: document.components });
    validators.set(key, validate);
    return validate;
  }

  function templateOf(method: string, requestPath: string): string | undefined {
    const trimmed = requestPath.length > 1 ? requestPath.replace(/\/+$/, '') : requestPath;
    const path = trimmed.startsWith(CONSOLE_API) ? `/${trimmed.slice(CONSOLE_API.length)}` : trimmed;
    return templates.find((template) => template.pattern.test(path) && operationOf(method, template.path) !== undefined)
      ?.path;
  }

  return {
    documented,
    templateOf,
    problemOf({ method, path, status, contentType, body }) {
      if (status < 200 || status > 299 || !isJson(contentType)) return null;
      const template = templateOf(method, path);
      if (template === undefined) return null;
      const where = `${method} ${path} (${template})`;
      const response = operationOf(method, template)?.responses?.[String(status)];
      if (!response) return `${where} answered ${status}, which the document does not list`;
      const validate = validatorOf(method, template, status);
      if (!validate) return `${where} answered ${status} with JSON, which the document does not give it`;
      if (validate(body)) return null;
      return `${where} answered ${status} with ${JSON.stringify(body)}, which its schema refuses: ${ajv.errorsText(validate.errors)}`;
    },
  };
}

let shared: ContractChecker | undefined;
/** Answers of the test apps that did not match the document, not yet reported. */
const violations: string[] = [];

/** The successful JSON answer `res` is about to send, collected as it is written. */
function watch(req: IncomingMessage, res: ServerResponse): void {
  const method = req.method ?? 'GET';
  if (method === 'HEAD') return;
  const path = new URL(req.url ?? '/', 'http://answers.test').pathname;
  const chunks: Buffer[] = [];
  const collect = (chunk: unknown, encoding?: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    if (res.statusCode < 200 || res.statusCode > 299 || !isJson(String(res.getHeader('content-type') ?? ''))) return;
    chunks.push(
      typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array),
    );
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.write = ((...args: unknown[]) => {
    collect(args[0], args[1]);
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    collect(args[0], args[1]);
    return end(...args);
  }) as ServerResponse['end'];
  res.once('finish', () => {
    if (chunks.length === 0) return;
    const contentType = String(res.getHeader('content-type') ?? '');
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      violations.push(`${method} ${path} answered ${res.statusCode} with a body that is not JSON`);
      return;
    }
    shared ??= contractChecker();
    const problem = shared.problemOf({ method, path, status: res.statusCode, contentType, body });
    if (problem !== null) violations.push(problem);
  });
}

/**
 * `app`, each of whose successful JSON answers is checked against the OpenAPI document as it is
 * sent; `expectAnswersAsDocumented` reports those that did not match. Wrapping `handle` leaves the
 * app itself (its router, for the tests that walk it) as it was.
 */
export function checkingAnswers(app: Express): Express {
  // Express calls `app.handle` for every request; it is not in its types.
  const handled = app as unknown as { handle(req: IncomingMessage, res: ServerResponse, next?: unknown): void };
  const handle = handled.handle.bind(app);
  handled.handle = (req, res, next) => {
    watch(req, res);
    handle(req, res, next);
  };
  return app;
}

/** Fails with the answers of the test apps that did not match the document since it was last called. */
export function expectAnswersAsDocumented(): void {
  const found = violations.splice(0);
  if (found.length > 0) {
    throw new Error(`Answers that do not match the OpenAPI document:\n- ${found.join('\n- ')}`);
  }
}
