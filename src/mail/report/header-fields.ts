/** One `Name: value` field, name lower-cased, value unfolded and trimmed. */
export interface Field {
  name: string;
  value: string;
}

// Linear: a run of name characters, optional blanks, a colon; the classes do not overlap.
const FIELD_LINE = /^([A-Za-z0-9][A-Za-z0-9_-]{0,76})[ \t]*:(.*)$/;

/**
 * The fields of a block of `Name: value` lines (a delivery-status or feedback-report body, a
 * header block), grouped at blank lines, continuation lines folded into the field before them.
 * Lines that are not fields are skipped.
 */
export function readFieldGroups(text: string): Field[][] {
  const groups: Field[][] = [];
  let group: Field[] = [];
  let last: Field | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (group.length > 0) groups.push(group);
      group = [];
      last = null;
      continue;
    }
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== null) {
      last.value = `${last.value} ${line.trim()}`;
      continue;
    }
    const match = FIELD_LINE.exec(line);
    if (!match) {
      last = null;
      continue;
    }
    last = { name: (match[1] as string).toLowerCase(), value: (match[2] as string).trim() };
    group.push(last);
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

export function fieldValue(fields: readonly Field[], name: string): string | null {
  for (const field of fields) if (field.name === name && field.value !== '') return field.value;
  return null;
}

export function fieldValues(fields: readonly Field[], name: string): string[] {
  return fields.filter((field) => field.name === name && field.value !== '').map((field) => field.value);
}

/** A DSN typed value (`rfc822; x@y`, `dns; mx.example`, `smtp; 550 ...`) without its type. */
export function untyped(value: string): string {
  const semicolon = value.indexOf(';');
  if (semicolon > 0 && /^[A-Za-z0-9-]+$/.test(value.slice(0, semicolon).trim()))
    return value.slice(semicolon + 1).trim();
  return value.trim();
}
