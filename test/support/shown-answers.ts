/**
 * How an answer shown in the documentation is compared with the service's: the same status, the
 * same fields and the same values, but for what differs on every run (ids, times, secrets,
 * tokens), which must only be of the same kind. The ids the documentation shows are mapped to the
 * service's as they appear, so that a later example that names one is sent with the real one, and
 * the same shown id must always stand for the same real one.
 */

/** The values that differ on every run, found inside any string. */
const INLINE_KINDS: readonly [kind: string, pattern: RegExp, mapped: boolean][] = [
  ['uuid', /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i, true],
  ['time', /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z/, false],
  ['http date', /(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT/, false],
  ['webhook event id', /msg_[0-9a-f]{32}/, true],
  ['signing secret', /whsec_[A-Za-z0-9+/]{43}=/, true],
  ['unsubscribe token', /(?<=\/unsubscribe\/)[A-Za-z0-9_-]{20,}/, true],
];

/** The values that differ on every run when they are a whole string. */
const WHOLE_KINDS: readonly [kind: string, pattern: RegExp, mapped: boolean][] = [
  ['sha-256', /^[0-9a-f]{64}$/, true],
  ['random token', /^[A-Za-z0-9_-]{43}$/, true],
  ['classifier version', /^\d+\.[0-9a-f]{8}$/, false],
];

const INLINE = new RegExp(INLINE_KINDS.map(([, pattern]) => `(${pattern.source})`).join('|'), 'gi');

interface Piece {
  kind: string;
  value: string;
  mapped: boolean;
}

/** The string's fixed text, with a mark where each value of a run stands, and those values. */
function pieces(text: string): { skeleton: string; values: Piece[] } {
  for (const [kind, pattern, mapped] of WHOLE_KINDS) {
    if (pattern.test(text)) return { skeleton: `<${kind}>`, values: [{ kind, value: text, mapped }] };
  }
  const values: Piece[] = [];
  const skeleton = text.replace(INLINE, (match, ...groups: unknown[]) => {
    const index = groups.slice(0, INLINE_KINDS.length).findIndex((group) => group !== undefined);
    const [kind, , mapped] = INLINE_KINDS[index]!;
    values.push({ kind, value: match, mapped });
    return `<${kind}>`;
  });
  return { skeleton, values };
}

/** The documentation's ids and the service's, as the examples of one document met them. */
export class ShownIds {
  private readonly real = new Map<string, string>();
  private readonly shown = new Map<string, string>();

  /** The real value a shown one stood for, or the shown one when none was met yet. */
  realOf(shown: string): string {
    return this.real.get(shown) ?? shown;
  }

  /** Pairs a shown value with the real one; a problem when either was paired with another before. */
  pair(shown: string, real: string): string | null {
    const known = this.real.get(shown);
    if (known !== undefined && known !== real) {
      return `the document shows ${shown} where the service answered ${real}, but it stood for ${known} before`;
    }
    const knownShown = this.shown.get(real);
    if (knownShown !== undefined && knownShown !== shown) {
      return `the service answered ${real} both where the document shows ${knownShown} and where it shows ${shown}`;
    }
    this.real.set(shown, real);
    this.shown.set(real, shown);
    return null;
  }

  /** The text with every shown value that was met replaced by its real one, longest first. */
  substitute(text: string): string {
    let result = text;
    for (const [shown, real] of [...this.real].sort(([a], [b]) => b.length - a.length)) {
      result = result.split(shown).join(real);
    }
    return result;
  }
}

/** Where a comparison stands in the answer, and what it found wrong. */
interface Comparison {
  ids: ShownIds;
  /** Only the fields and the types of their values are compared, not the values. */
  shapeOnly: boolean;
  problems: string[];
}

function compareStrings(path: string, shown: string, real: string, comparison: Comparison): void {
  const expected = pieces(shown);
  const actual = pieces(real);
  if (expected.skeleton !== actual.skeleton || expected.values.length !== actual.values.length) {
    comparison.problems.push(
      `${path}: the document shows ${JSON.stringify(shown)}, the service answered ${JSON.stringify(real)}`,
    );
    return;
  }
  expected.values.forEach((value, index) => {
    const answered = actual.values[index]!;
    if (!value.mapped || value.value === answered.value) return;
    const problem = comparison.ids.pair(value.value, answered.value);
    if (problem !== null) comparison.problems.push(`${path}: ${problem}`);
  });
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

function compareValues(path: string, shown: unknown, real: unknown, comparison: Comparison): void {
  const type = typeOf(shown);
  if (comparison.shapeOnly && (shown === null || real === null)) return;
  if (type !== typeOf(real)) {
    comparison.problems.push(
      `${path}: the document shows ${JSON.stringify(shown)}, the service answered ${JSON.stringify(real)}`,
    );
    return;
  }
  if (type === 'array') {
    const [expected, actual] = [shown as unknown[], real as unknown[]];
    if (expected.length !== actual.length && !comparison.shapeOnly) {
      comparison.problems.push(
        `${path}: the document shows ${expected.length} items, the service answered ${actual.length}`,
      );
      return;
    }
    const count = Math.min(expected.length, actual.length);
    for (let index = 0; index < count; index++)
      compareValues(`${path}[${index}]`, expected[index], actual[index], comparison);
    return;
  }
  if (type === 'object') {
    const [expected, actual] = [shown as Record<string, unknown>, real as Record<string, unknown>];
    const missing = Object.keys(expected).filter((key) => !(key in actual));
    const extra = Object.keys(actual).filter((key) => !(key in expected));
    if (missing.length > 0) comparison.problems.push(`${path}: the service's answer lacks ${missing.join(', ')}`);
    if (extra.length > 0) comparison.problems.push(`${path}: the document does not show ${extra.join(', ')}`);
    for (const key of Object.keys(expected)) {
      if (key in actual) compareValues(`${path}.${key}`, expected[key], actual[key], comparison);
    }
    return;
  }
  if (type === 'string') {
    const before = comparison.problems.length;
    compareStrings(path, shown as string, real as string, comparison);
    // The ids of a shape are still met, for the examples that name them; its values may differ.
    if (comparison.shapeOnly) comparison.problems.length = before;
    return;
  }
  if (comparison.shapeOnly) return;
  if (shown !== real) {
    comparison.problems.push(
      `${path}: the document shows ${JSON.stringify(shown)}, the service answered ${JSON.stringify(real)}`,
    );
  }
}

function parsed(text: string): { json: unknown } | null {
  try {
    return { json: JSON.parse(text) };
  } catch {
    return null;
  }
}

/** The service's answer to an example, as the test received it. */
export interface RealAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** A shown header's value matches when its text, values of a run aside, is the real one's; `…` elides. */
function headerMatches(shown: string, real: string): boolean {
  const marked = (text: string) => pieces(text).skeleton;
  const parts = marked(shown).split('…');
  const actual = marked(real);
  let from = 0;
  for (const [index, part] of parts.entries()) {
    const at = actual.indexOf(part, from);
    if (at === -1 || (index === 0 && at !== 0)) return false;
    from = at + part.length;
  }
  return from === actual.length || parts.at(-1) === '';
}

/**
 * What differs between the answer a document shows and the service's: its status (the status line
 * of `curl -i`, the `statusCode` of an error, else any success), the headers shown, and the body,
 * JSON field by field or text line by line.
 */
export function answerProblems(
  shownText: string,
  real: RealAnswer,
  options: { ids: ShownIds; includeHeaders: boolean; shapeOnly?: boolean },
): string[] {
  const comparison: Comparison = { ids: options.ids, shapeOnly: options.shapeOnly ?? false, problems: [] };
  let shownBody = shownText;
  let status: number | null = null;
  if (options.includeHeaders) {
    const [head = '', ...rest] = shownText.split('\n\n');
    shownBody = rest.join('\n\n');
    const [statusLine = '', ...headerLines] = head.split('\n');
    status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1]);
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim();
      const value = real.headers.get(name);
      if (value === null) comparison.problems.push(`the answer has no ${name} header`);
      else if (!headerMatches(line.slice(colon + 1).trim(), value)) {
        comparison.problems.push(
          `${name}: the document shows ${line.slice(colon + 1).trim()}, the service answered ${value}`,
        );
      }
    }
  }
  const shownJson = parsed(shownBody);
  const shownError = shownJson?.json as { statusCode?: unknown } | undefined;
  if (status === null && typeof shownError?.statusCode === 'number') status = shownError.statusCode;
  if (status !== null ? real.status !== status : real.status >= 300) {
    comparison.problems.push(`the service answered ${real.status}, the document shows ${status ?? 'a success'}`);
  }
  if (shownJson !== null) {
    const realJson = parsed(real.text);
    if (realJson === null) comparison.problems.push(`the service answered ${JSON.stringify(real.text)}, not JSON`);
    else compareValues('answer', shownJson.json, realJson.json, comparison);
    return comparison.problems;
  }
  const [shownLines, realLines] = [shownBody.split('\n'), real.text.trimEnd().split('\n')];
  if (shownLines.length !== realLines.length) {
    comparison.problems.push(`the document shows ${shownLines.length} lines, the service answered ${realLines.length}`);
  }
  shownLines.forEach((line, index) => {
    if (index < realLines.length) compareStrings(`line ${index + 1}`, line, realLines[index]!, comparison);
  });
  return comparison.problems;
}
