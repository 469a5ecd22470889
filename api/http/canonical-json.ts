/** Text written as it is, between the values of an array or object. */
class Punctuation {
  constructor(readonly text: string) {}
}

/**
 * JSON with object keys sorted at every level, so equal bodies hash equally whatever their key
 * order. It walks the value with a stack of its own rather than by recursion: it runs on bodies
 * before they are validated, and a body nested thousands of levels deep must not overflow the
 * call stack.
 */
export function canonicalJson(value: unknown): string {
  let text = '';
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (item instanceof Punctuation) {
      text += item.text;
    } else if (item === undefined) {
      text += 'null';
    } else if (item === null || typeof item !== 'object') {
      text += JSON.stringify(item);
    } else if (Array.isArray(item)) {
      // Pushed last to first, so that they are written first to last.
      pending.push(new Punctuation(']'));
      for (let index = item.length - 1; index >= 0; index -= 1) {
        pending.push(item[index]);
        if (index > 0) pending.push(new Punctuation(','));
      }
      pending.push(new Punctuation('['));
    } else {
      const record = item as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      pending.push(new Punctuation('}'));
      for (let index = keys.length - 1; index >= 0; index -= 1) {
        const key = keys[index] as string;
        pending.push(record[key], new Punctuation(`${JSON.stringify(key)}:`));
        if (index > 0) pending.push(new Punctuation(','));
      }
      pending.push(new Punctuation('{'));
    }
  }
  return text;
}
