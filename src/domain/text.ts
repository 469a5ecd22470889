/**
 * Text PostgreSQL can store. A `text` value cannot hold NUL, and a UTF-16 surrogate that pairs with
 * nothing has no UTF-8 form: either one fails the whole statement that carries it, and a statement
 * may carry many accounts' rows. So such text is stopped where it comes in: refused where a person
 * typed it and can fix it (the API's bodies and queries, the CLI, job data a producer built), and
 * stripped where it is evidence no one can resend (a mail server's diagnostic in an event or a feed).
 */

export const UNSTORABLE_TEXT_RULE = 'must not contain NUL characters or unpaired UTF-16 surrogates';

export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}

/** NUL removed and each unpaired surrogate replaced by U+FFFD, as a UTF-8 decoder would. */
export function storableText(value: string): string {
  return isStorableText(value) ? value : value.replaceAll('\u0000', '').toWellFormed();
}

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

function pathOf(visit: Visit | undefined): string {
  let path = '';
  for (let at = visit; at !== undefined && at.key !== undefined; at = at.parent) {
    path =
      typeof at.key === 'number'
        ? `[${at.key}]${path}`
        : path === '' || path.startsWith('[')
          ? `${at.key}${path}`
          : `${at.key}.${path}`;
  }
  return path;
}

/**
 * Where a parsed JSON value holds a string that cannot be stored (`emails[3]`, `note`, `a key of
 * filters`), or null when it holds none. Iterative, and the path is spelled only for what it finds,
 * so a deeply nested body costs time in proportion to its size and cannot overflow the stack.
 */
export function findUnstorableText(value: unknown): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : '';
  const stack: Visit[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const current = visit.value;
    // Strings are checked where they are met, and only containers wait on the stack: a body is
    // mostly a list of strings (a check's 1,000 addresses), walked without an allocation each.
    if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index += 1) {
        const item: unknown = current[index];
        if (typeof item === 'string') {
          if (!isStorableText(item)) return pathOf({ value: item, key: index, parent: visit });
        } else if (typeof item === 'object' && item !== null) stack.push({ value: item, key: index, parent: visit });
      }
    } else if (typeof current === 'object' && current !== null) {
      for (const key of Object.keys(current)) {
        if (!isStorableText(key)) return visit.key === undefined ? 'a key of the body' : `a key of ${pathOf(visit)}`;
        const item: unknown = (current as Record<string, unknown>)[key];
        if (typeof item === 'string') {
          if (!isStorableText(item)) return pathOf({ value: item, key, parent: visit });
        } else if (typeof item === 'object' && item !== null) stack.push({ value: item, key, parent: visit });
      }
    }
  }
  return null;
}
