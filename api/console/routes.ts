import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import helmet from 'helmet';
import { AppError } from '../../src/errors.js';

/** Where `consoleRouter` is mounted; the console's API is under `${CONSOLE_PATH}/api`. */
export const CONSOLE_PATH = '/console';
export const CONSOLE_API_PATH = `${CONSOLE_PATH}/api`;

/**
 * Scripts, styles and fonts from this server only, and nothing inline: no `'unsafe-inline'` and no
 * `'unsafe-eval'`, so injected markup can run nothing. `connect-src 'self'` keeps the page's requests
 * on this origin; `frame-ancestors 'none'` keeps it out of other pages' frames.
 */
export const CONSOLE_CSP = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/**
 * helmet's defaults for pages, with the console's policy. They replace the API's headers, which ran
 * first: each is set again, not added, so a page carries one Content-Security-Policy.
 */
const consolePageHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
  xFrameOptions: { action: 'deny' },
});

/** Requests under these are the console's API and session, never pages: they fall through to their 404. */
const NOT_PAGES = /^\/(?:api|session)(?:\/|$)/;

/**
 * The built console (`npm run build` writes it to dist/console): `/console/assets/*` with names that
 * change with their content, so cached for a year; any other `GET /console/...` answers the page,
 * whose script routes on the client, revalidated on every load so a new build is seen at once.
 * Without a build, `/console` answers 404 saying how to make one.
 */
export function consoleRouter(dir: string | undefined): Router {
  const router = Router();
  const index = dir === undefined ? undefined : path.join(dir, 'index.html');
  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_PAGES.test(req.path)) return next('router');
    if (dir === undefined || index === undefined || !existsSync(index)) {
      throw new AppError(
        'not_found',
        'The console is not built: run `npm run build`, which writes it to dist/console.',
      );
    }
    consolePageHeaders(req, res, next);
  });
  if (dir === undefined || index === undefined) return router;
  // A missing asset is a 404, not the page: its name came from a build, never from a link.
  router.use(
    '/assets',
    express.static(path.join(dir, 'assets'), { index: false, redirect: false, immutable: true, maxAge: '1y' }),
    (_req, _res, next) => next('router'),
  );
  router.use(express.static(dir, { index: false, redirect: false, maxAge: 0 }));
  const page: RequestHandler = (_req, res, next) => {
    res.set('cache-control', 'no-cache');
    res.sendFile(index, (error) => {
      if (error) next(error);
    });
  };
  router.use(page);
  return router;
}
