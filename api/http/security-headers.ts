import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Security headers for JSON answers, OWASP's REST profile: nothing may be loaded from or frame them
 * (CSP and X-Frame-Options), no MIME sniffing, HTTPS only. Headers that only mean something for
 * HTML documents or cross-origin embedding (COOP, CORP, Origin-Agent-Cluster, Referrer-Policy,
 * X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies, X-XSS-Protection)
 * are left out: every request and every client pays for them, and an API answer gains nothing from
 * them. Pages set their own policy (`pageSecurityHeaders`).
 */
export function apiSecurityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    referrerPolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });
}

/** helmet's defaults, for HTML pages served next to the API (the queue dashboard). */
export function pageSecurityHeaders(): RequestHandler {
  return helmet();
}

/** Answers that carry an account's addresses are kept by no cache, shared or private. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('cache-control', 'no-store');
  next();
};
