import { createHash } from 'node:crypto';
import type { Response } from 'express';

// One small page, styled inline: the policy below allows this style and nothing else to load.
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:32rem;margin:10vh auto;padding:2rem;background:#fff;border:1px solid #d5d9de;border-radius:8px}
h1{font-size:1.4rem;margin:0 0 1rem}button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border:0;
border-radius:6px;background:#0b57b8;color:#fff;cursor:pointer}button:focus{outline:3px solid #f0b400;outline-offset:2px}`;

const POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const escaped = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** Sends an HTML page: a heading, a paragraph, and the one-click form when `form` is set. */
export function sendPage(res: Response, status: number, page: { title: string; text: string; form?: boolean }): void {
  const form = page.form
    ? `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`
    : '';
  res
    .status(status)
    .set('content-security-policy', POLICY)
    .set('cache-control', 'no-store')
    .set('referrer-policy', 'no-referrer')
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${escaped(page.title)}</title><style>${STYLE}</style></head>` +
        `<body><main><h1>${escaped(page.title)}</h1><p>${escaped(page.text)}</p>${form}</main></body></html>`,
    );
}
