import type { Request, RequestHandler } from 'express';
import { AppError } from '../../src/errors.js';

/** The origin the request was made to, as a browser names it in `Origin`. */
function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? ''}`;
}

/**
 * Refuses a request that a page of another origin made: its `Origin` (when the browser sent one)
 * must be this service's own, and its `Sec-Fetch-Site` (likewise) `same-origin`, or `none` for an
 * address typed or bookmarked. For what a browser authenticates by itself (the console's cookie, the
 * dashboard's remembered Basic credentials), so that another page cannot make it act; this also
 * holds off pages of the same site on another port or subdomain. Clients that are not browsers send
 * neither header and pass.
 */
export const sameOriginOnly: RequestHandler = (req, _res, next) => {
  const origin = req.get('origin');
  if (origin !== undefined && origin !== ownOrigin(req)) {
    throw new AppError('invalid_csrf_token', 'The request was refused: it comes from a page of another origin.');
  }
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw new AppError('invalid_csrf_token', 'The request was refused: it comes from a page of another site.');
  }
  next();
};
