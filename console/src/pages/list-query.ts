import { useEffect, useState } from 'preact/hooks';
import { API, messageOf, request, type SuppressionPage } from '../api.js';
import { searchFilters } from '../search.js';

export const PAGE_SIZE = 50;

/** The list's address in the console, from its search, filter and cursor. */
export type ListParams = { q?: string; origin?: string; scope?: string; after?: string; before?: string };

export interface ListState {
  loading: boolean;
  page: SuppressionPage | null;
  error: string | null;
}

/**
 * The page of the list these parameters name, read again whenever `reloads` grows; `loaded` is
 * called with each page read. An answer is kept with the query it answers: until the effect has
 * asked for a new one, on the render where the query changes, the old answer counts as loading.
 */
export function useListQuery(
  params: Required<ListParams>,
  reloads: number,
  loaded: () => void,
): { list: ListState; failed: (message: string) => void } {
  const { q, origin, scope, after, before } = params;
  const key = JSON.stringify([q, origin, scope, after, before, reloads]);
  const [state, setState] = useState<ListState & { key: string }>({ key, loading: true, page: null, error: null });

  useEffect(() => {
    let current = true;
    setState((previous) => ({ ...previous, key, loading: true, error: null }));
    const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...searchFilters(q) });
    if (origin) query.set('origin', origin);
    if (scope) query.set('scope', scope);
    if (after) query.set('after', after);
    if (before) query.set('before', before);
    request<SuppressionPage>('GET', `${API}?${query.toString()}`).then(
      (page) => {
        if (!current) return;
        setState({ key, loading: false, page, error: null });
        loaded();
      },
      (error: unknown) => {
        if (!current) return;
        setState({ key, loading: false, page: null, error: `The list could not be read: ${messageOf(error)}` });
      },
    );
    return () => {
      current = false;
    };
    // `key` holds every parameter the request is made of.
  }, [key]);

  return {
    list: state.key === key ? state : { ...state, loading: true },
    failed: (message) => setState((previous) => ({ ...previous, error: message })),
  };
}
