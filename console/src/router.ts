import { useEffect, useState } from 'preact/hooks';

/** The console's own paths; every other one is the list. */
export const BASE = '/console';

export interface Location {
  path: string;
  query: URLSearchParams;
}

function current(): Location {
  const path = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(window.location.search) };
}

const listeners = new Set<() => void>();

/** Goes to a page of the console without reloading it; `replace` keeps the history as it was. */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${to}`;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  for (const listener of listeners) listener();
}

/** The current location, updated on navigation and on the browser's back and forward. */
export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    listeners.add(update);
    window.addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      window.removeEventListener('popstate', update);
    };
  }, []);
  return location;
}

/** Follows same-page links without a reload; modified clicks (new tab, download) are left alone. */
export function followLink(event: MouseEvent): void {
  const link = (event.target as Element | null)?.closest('a');
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (link.hasAttribute('download') || link.target) return;
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin || (!url.pathname.startsWith(`${BASE}/`) && url.pathname !== BASE)) return;
  if (url.pathname.startsWith(`${BASE}/api/`)) return;
  event.preventDefault();
  navigate(`${url.pathname.slice(BASE.length) || '/'}${url.search}`);
}

/** An href of the console for `to` (a path of the console, with its query). */
export function href(to: string): string {
  return `${BASE}${to}`;
}
