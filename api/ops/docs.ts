import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type RequestHandler } from 'express';
import type { Endpoint } from '../http/endpoints.js';
import { errorResponses, JSON_TYPE } from '../openapi/responses.js';
import type { OpsDeps } from './deps.js';

/** swagger-ui-dist's files, served from node_modules: the page makes no request to any other host. */
const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS = new Set([
  '/swagger-ui.css',
  '/index.css',
  '/swagger-ui-bundle.js',
  '/favicon-32x32.png',
  '/favicon-16x16.png',
]);

export const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Suppression List API reference</title>
    <link rel="stylesheet" type="text/css" href="/docs/swagger-ui.css" />
    <link rel="stylesheet" type="text/css" href="/docs/index.css" />
    <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32" />
    <link rel="icon" type="image/png" href="/docs/favicon-16x16.png" sizes="16x16" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js" charset="UTF-8"></script>
    <script src="/docs/swagger-initializer.js" charset="UTF-8"></script>
  </body>
</html>
`;

// A file of its own rather than an inline script, so that a strict Content-Security-Policy allows it.
// validatorUrl: null keeps Swagger UI from sending the document to validator.swagger.io.
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
};
`;

const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join('; ');

const staticAssets = express.static(SWAGGER_UI_DIR, { index: false, fallthrough: true, maxAge: '1h' });

/** `/docs/*`: the initializer and a fixed list of swagger-ui-dist files; anything else falls through to 404. */
export const docsAssets: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  if (req.path === '/swagger-initializer.js') {
    res.type('text/javascript').send(INITIALIZER);
    return;
  }
  if (!ASSETS.has(req.path)) return next();
  staticAssets(req, res, next);
};

export const openApiEndpoint: Endpoint<OpsDeps> = {
  method: 'get',
  path: '/openapi.json',
  access: 'public',
  doc: {
    operationId: 'openapi',
    tags: ['Operations'],
    summary: 'This OpenAPI 3.1 document',
    responses: {
      200: { description: 'The document.', content: { [JSON_TYPE]: { schema: { type: 'object' } } } },
      ...errorResponses('method_not_allowed'),
    },
  },
  handler:
    ({ document }) =>
    (_req, res) => {
      res.json(document());
    },
};

export const docsEndpoint: Endpoint<OpsDeps> = {
  method: 'get',
  path: '/docs',
  access: 'public',
  doc: {
    operationId: 'docs',
    tags: ['Operations'],
    summary: 'Readable API reference (Swagger UI, served locally)',
    responses: {
      200: { description: 'HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
    },
  },
  handler: () => (_req, res) => {
    // Same-origin only, and no upgrade-insecure-requests (which would break the assets over plain HTTP).
    res.set('Content-Security-Policy', DOCS_CSP);
    res.type('html').send(DOCS_PAGE);
  },
};
