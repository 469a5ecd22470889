import express, { Router, type Request } from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  byPath,
  defineFeature,
  documentPath,
  mountFeature,
  operationsOf,
  publicAccessOf,
  sendingAccessOf,
  type OperationDoc,
} from '../../api/http/endpoints.js';
import { errorHandler } from '../../api/http/errors.js';
import { createLogger } from '../../src/logger.js';
import { routePatternOf } from '../../api/http/route-pattern.js';

const doc = (summary: string): OperationDoc => ({
  summary,
  responses: { 200: { description: 'ok', content: { 'application/json': { schema: z.object({}) } } } },
});

const widgets = defineFeature<{ greeting: string }>('/widgets', [
  {
    method: 'get',
    path: '/',
    access: 'full',
    doc: doc('List widgets'),
    handler: (deps) => (req, res) => void res.json({ said: deps.greeting, route: routePatternOf(req) }),
  },
  {
    method: 'post',
    path: '/check',
    access: 'sending',
    doc: doc('Check widgets'),
    handler: () => (_req, res) => void res.json({ checked: true }),
  },
  {
    method: 'get',
    path: '/:widget',
    access: 'full',
    doc: doc('Get a widget'),
    handler: () => [
      (_req, res, next) => {
        res.locals['seen'] = 'before';
        next();
      },
      (req, res) => void res.json({ widget: req.params['widget'], seen: res.locals['seen'] }),
    ],
  },
  {
    method: 'delete',
    path: '/:widget',
    access: 'full',
    doc: doc('Delete a widget'),
    handler: () => (_req, res) => void res.status(204).end(),
  },
  // Declared after `/:widget`, which would otherwise take `export` for a widget.
  {
    method: 'get',
    path: '/export',
    access: 'full',
    doc: doc('Export widgets'),
    handler: () => (_req, res) => void res.json({ exported: true }),
  },
  {
    method: 'patch',
    path: '/parts/:part',
    access: 'full',
    doc: doc('Change a part'),
    handler: () => (_req, res) => void res.status(204).end(),
  },
  {
    method: 'get',
    path: '/parts/:part',
    access: 'full',
    doc: doc('Get a part'),
    handler: () => (req, res) => void res.json({ part: req.params['part'] }),
  },
]);

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  const router = Router();
  mountFeature(router, widgets, { greeting: 'hello' });
  app.use('/widgets', router);
  const console = Router();
  mountFeature(console, widgets, { greeting: 'from the console' }, '/console/api/widgets');
  app.use('/console/api/widgets', console);
  app.use(errorHandler(createLogger('silent'), '1mb'));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('a feature declared as endpoints', () => {
  it('when a declared endpoint is called, then its handler answers with its dependencies, named by its pattern', async () => {
    const answer = await fetch(`${base}/widgets`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ said: 'hello', route: '/widgets' });
  });

  it('when a feature is mounted a second time under another path, then its routes are named after that path', async () => {
    const answer = await fetch(`${base}/console/api/widgets`);
    expect(await answer.json()).toEqual({ said: 'from the console', route: '/console/api/widgets' });
  });

  it('when a handler is a chain, then each of its steps runs in order', async () => {
    const answer = await fetch(`${base}/widgets/w1`);
    expect(await answer.json()).toEqual({ widget: 'w1', seen: 'before' });
  });

  it('when a path is called with a method it does not declare, then the answer is 405 naming the methods it has', async () => {
    const answer = await fetch(`${base}/widgets/w1`, { method: 'PUT' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, DELETE');
  });

  it('when a path declares its methods out of order, then the 405 still lists them GET, POST, PUT, PATCH, DELETE', async () => {
    const answer = await fetch(`${base}/widgets/parts/p1`, { method: 'PUT' });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('GET, PATCH');
  });

  it('when a sending key asks, then only the endpoints declared sending admit it', () => {
    const sending = sendingAccessOf(widgets);
    const request = (method: string, path: string) => ({ method, path }) as Request;
    expect(sending(request('POST', '/check'))).toBe(true);
    expect(sending(request('GET', '/check'))).toBe(false);
    expect(sending(request('GET', '/'))).toBe(false);
    expect(sending(request('DELETE', '/w1'))).toBe(false);
  });

  it('when a feature has a public endpoint among keyed ones, then only its requests pass without guards, HEAD as GET', () => {
    const feature = defineFeature<{ greeting: string }>('/things', [
      { ...widgets.endpoints[1]!, method: 'post', path: '/', access: 'sending' },
      { ...widgets.endpoints[1]!, method: 'get', path: '/schema.json', access: 'public' },
    ]);
    const open = publicAccessOf(feature);
    const request = (method: string, path: string) => ({ method, path }) as Request;
    expect(open(request('GET', '/schema.json'))).toBe(true);
    expect(open(request('HEAD', '/schema.json'))).toBe(true);
    expect(open(request('POST', '/schema.json'))).toBe(false);
    expect(open(request('POST', '/'))).toBe(false);
    expect(open(request('GET', '/'))).toBe(false);
  });

  it('when the document is built, then each endpoint is one operation with its path, method and the security of its access', () => {
    expect(
      operationsOf(widgets).map(({ method, path, security, summary }) => ({ method, path, security, summary })),
    ).toEqual([
      { method: 'get', path: '/widgets', security: [{ bearerAuth: [] }], summary: 'List widgets' },
      { method: 'post', path: '/widgets/check', security: [{ bearerAuth: [] }], summary: 'Check widgets' },
      { method: 'get', path: '/widgets/{widget}', security: [{ bearerAuth: [] }], summary: 'Get a widget' },
      { method: 'delete', path: '/widgets/{widget}', security: [{ bearerAuth: [] }], summary: 'Delete a widget' },
      { method: 'get', path: '/widgets/export', security: [{ bearerAuth: [] }], summary: 'Export widgets' },
      { method: 'patch', path: '/widgets/parts/{part}', security: [{ bearerAuth: [] }], summary: 'Change a part' },
      { method: 'get', path: '/widgets/parts/{part}', security: [{ bearerAuth: [] }], summary: 'Get a part' },
    ]);
  });

  it('when a literal path is declared after a parameter that would match it, then the literal path still answers', async () => {
    const exported = await fetch(`${base}/widgets/export`);
    expect(await exported.json()).toEqual({ exported: true });
    const part = await fetch(`${base}/widgets/parts/p1`);
    expect(await part.json()).toEqual({ part: 'p1' });
    const widget = await fetch(`${base}/widgets/parts`);
    expect(await widget.json()).toEqual({ widget: 'parts', seen: 'before' });
  });

  it('when routes are mounted, then paths whose first parameter comes later are tried first, the rest as declared', () => {
    expect([...byPath(widgets.endpoints).keys()]).toEqual(['/', '/check', '/export', '/parts/:part', '/:widget']);
  });

  it('when a path has parameters, then the document writes them in braces', () => {
    expect(documentPath('/webhooks', '/:webhook/events/:event')).toBe('/webhooks/{webhook}/events/{event}');
    expect(documentPath('/health', '/')).toBe('/health');
  });
});
