import { unsubscribeLinksSchema } from '../contract/unsubscribe.js';
import { MAX_CHECK_ITEMS } from '../contract/limits.js';
import { SuppressionApiError } from './errors.js';

/** The headers to add to the message sent to `email`. */
export interface UnsubscribeHeaders {
  email: string;
  headers: { 'List-Unsubscribe': string; 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

export interface UnsubscribeHeadersResult {
  /** One per distinct valid address, in first-seen order. */
  links: UnsubscribeHeaders[];
  /** The items that are not addresses, by their index in the input. */
  invalid: { index: number; email: string; reason: string }[];
}

/**
 * `POST /unsubscribe-links` for any number of addresses, 1,000 a request, one after another. Throws
 * `SuppressionApiError` with the API's own error when a request is refused or not answered as documented.
 */
export async function requestUnsubscribeHeaders(
  url: string,
  apiKey: string,
  emails: readonly string[],
  scope: string | undefined,
): Promise<UnsubscribeHeadersResult> {
  const result: UnsubscribeHeadersResult = { links: [], invalid: [] };
  const seen = new Set<string>();
  for (let offset = 0; offset < emails.length; offset += MAX_CHECK_ITEMS) {
    const chunk = emails.slice(offset, offset + MAX_CHECK_ITEMS);
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(scope === undefined ? { emails: chunk } : { emails: chunk, scope }),
      redirect: 'manual',
    });
    const body = (await response.json().catch(() => null)) as { name?: unknown; message?: unknown } | null;
    if (!response.ok) {
      const named = typeof body?.name === 'string' && typeof body.message === 'string';
      throw new SuppressionApiError(
        response.status,
        named ? (body.name as string) : 'unexpected_response',
        named ? (body.message as string) : `The server answered ${response.status} without an API error.`,
      );
    }
    const parsed = unsubscribeLinksSchema.safeParse(body);
    if (!parsed.success) {
      throw new SuppressionApiError(response.status, 'unexpected_response', 'The answer is not a list of links.');
    }
    for (const link of parsed.data.data) {
      // An address repeated across requests is given once, as within one.
      if (seen.has(link.email)) continue;
      seen.add(link.email);
      result.links.push({
        email: link.email,
        headers: { 'List-Unsubscribe': link.list_unsubscribe, 'List-Unsubscribe-Post': link.list_unsubscribe_post },
      });
    }
    for (const item of parsed.data.invalid) result.invalid.push({ ...item, index: item.index + offset });
  }
  return result;
}
