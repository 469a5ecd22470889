import SwaggerParser from '@apidevtools/swagger-parser';
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { Express } from 'express';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { routes } from '../../api/openapi-document.js';
import { errorSchema } from '../../src/contract/error.js';
import { useTestApp } from '../support/test-app.js';

const app = useTestApp();

let document: any;

beforeAll(async () => {
  const response = await fetch(`${app.server.url}/openapi.json`);
  expect(response.status).toBe(200);
  document = await response.json();
});

interface StackLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  rawPath?: string | RegExp | Array<string | RegExp>;
  handle?: { stack?: StackLayer[] };
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

/** Every `METHOD /path` the app routes, found by walking Express 5's router stack, nested routers included. */
function servedRoutes(express: Express): string[] {
  const found = new Set<string>();
  const join = (prefix: string, path: string) => (path === '/' ? prefix || '/' : `${prefix}${path}`);
  const walk = (stack: StackLayer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          const openApiPath = join(prefix, path).replace(/:(\w+)/g, '{$1}');
          // The console's mount of the suppressions router: the same operations, documented once.
          if (openApiPath.startsWith('/console/api/')) continue;
          for (const method of Object.keys(layer.route.methods)) {
            if (method === '_all') continue; // `.all(methodNotAllowed(...))`: the 405 answer, not an operation
            found.add(`${method.toUpperCase()} ${openApiPath}`);
          }
        }
      } else if (layer.handle?.stack) {
        const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
        walk(layer.handle.stack, `${prefix}${mount}`);
      }
    }
  };
  walk((express as unknown as { router: { stack: StackLayer[] } }).router.stack, '');
  return [...found].sort();
}

function documentedRoutes(): string[] {
  const found: string[] = [];
  for (const [path, item] of Object.entries<Record<string, unknown>>(document.paths)) {
    for (const method of Object.keys(item))
      if (HTTP_METHODS.includes(method)) found.push(`${method.toUpperCase()} ${path}`);
  }
  return found.sort();
}

/** The `example` and every `examples[*].value` of a media type or parameter. */

function examplesOf(holder: any): Array<{ name: string; value: unknown }> {
  const found: Array<{ name: string; value: unknown }> = [];
  if (holder?.example !== undefined) found.push({ name: 'example', value: holder.example });
  for (const [name, example] of Object.entries<{ value?: unknown }>(holder?.examples ?? {}))
    found.push({ name, value: example.value });
  return found;
}

function routeConfig(method: string, path: string): RouteConfig {
  const route = routes.find((candidate) => candidate.method === method && candidate.path === path);
  if (!route) throw new Error(`no route config for ${method} ${path}`);
  return route;
}

function zodSchemaOf(content: unknown): ZodType | undefined {
  const schema = (content as { schema?: unknown } | undefined)?.schema;
  return schema && typeof (schema as ZodType).safeParse === 'function' ? (schema as ZodType) : undefined;
}

describe('GET /openapi.json', () => {
  it('when it is fetched, then it is an OpenAPI 3.1 document that a validator accepts', async () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(document.paths).length).toBeGreaterThan(0);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    await expect(SwaggerParser.validate(structuredClone(document))).resolves.toBeDefined();
  });

  it('when it is fetched without an API key, then it answers 200 with JSON', async () => {
    const response = await fetch(`${app.server.url}/openapi.json`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it("when the app's routes are walked, then each is documented with its method, and nothing else is", () => {
    const served = servedRoutes(app.express);

    expect(served).toEqual(
      expect.arrayContaining(['GET /suppressions', 'DELETE /suppressions/{suppression}', 'GET /health']),
    );
    expect(documentedRoutes()).toEqual(served);
  });

  it('when a route needs an API key, then its error answers and the bearer scheme are documented', () => {
    for (const [path, item] of Object.entries<
      Record<string, { responses: Record<string, unknown>; security?: unknown[] }>
    >(document.paths)) {
      if (!path.startsWith('/suppressions')) continue;
      for (const operation of Object.values(item)) {
        expect(Object.keys(operation.responses)).toEqual(
          expect.arrayContaining(['401', '403', '405', '422', '429', '500', '503']),
        );
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
      }
    }

    expect(Object.keys(document.paths['/suppressions/{suppression}'].get.responses)).toContain('404');
    expect(Object.keys(document.paths['/suppressions/batch/add'].post.responses)).toContain('413');
  });

  it('when a request body or parameter has examples, then the zod request schemas accept them', () => {
    let checked = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const config = routeConfig(method, path);
        const content = operation.requestBody?.content?.['application/json'];
        if (content) {
          const schema = zodSchemaOf(config.request?.body?.content['application/json']);
          expect(schema, `${method} ${path} body schema`).toBeDefined();
          const examples = examplesOf(content);
          expect(examples.length, `${method} ${path} has a body example`).toBeGreaterThan(0);
          for (const { name, value } of examples) {
            expect(schema!.safeParse(value).success, `${method} ${path} body example ${name}`).toBe(true);
            checked++;
          }
        }
        for (const parameter of operation.parameters ?? []) {
          const source =
            parameter.in === 'query'
              ? config.request?.query
              : parameter.in === 'path'
                ? config.request?.params
                : undefined;
          if (!source) continue;
          for (const { name, value } of [...examplesOf(parameter), ...examplesOf(parameter.schema)]) {
            const result = (source as ZodType).safeParse({ [parameter.name]: value });
            expect(result.success, `${method} ${path} ${parameter.in} ${parameter.name} ${name}`).toBe(true);
            checked++;
          }
        }
      }
    }

    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('when a response has examples, then the zod response schemas accept them', () => {
    let checked = 0;
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const config = routeConfig(method, path);
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          const content = response.content?.['application/json'];
          const schema = zodSchemaOf(
            (config.responses[status] as { content?: Record<string, unknown> }).content?.['application/json'],
          );
          if (!content || !schema) continue;
          const examples = examplesOf(content);
          expect(examples.length, `${method} ${path} ${status} has an example`).toBeGreaterThan(0);
          for (const { name, value } of examples) {
            expect(schema.safeParse(value).success, `${method} ${path} ${status} example ${name}`).toBe(true);
            if (schema === errorSchema) expect(value).toMatchObject({ statusCode: Number(status) });
            checked++;
          }
        }
      }
    }

    expect(checked).toBeGreaterThanOrEqual(50);
  });
});

describe('GET /docs', () => {
  it('when it is opened, then it answers an HTML page whose assets all load from this server', async () => {
    const response = await fetch(`${app.server.url}/docs`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    const html = await response.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset, 'same-origin path').toMatch(/^\/docs\//);
      const loaded = await fetch(`${app.server.url}${asset}`);
      expect(loaded.status, asset).toBe(200);
      const body = await loaded.text();
      if (asset.endsWith('swagger-initializer.js')) {
        expect(body).toContain("url: '/openapi.json'");
        expect(body).not.toMatch(/https?:\/\//);
      }
    }
  });

  it('when another file of swagger-ui-dist is asked for (its petstore page), then it answers 404', async () => {
    expect((await fetch(`${app.server.url}/docs/index.html`)).status).toBe(404);
    expect((await fetch(`${app.server.url}/docs/package.json`)).status).toBe(404);
  });
});
