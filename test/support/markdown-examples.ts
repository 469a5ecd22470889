/**
 * The HTTP examples of a Markdown document: in its fenced blocks, each `$ curl ...` command (with
 * its `\` continuation lines) and the answer printed under it, up to a blank line or the next
 * command. What the documents show is what the tests send and compare, so the two cannot drift.
 */

export interface CurlExample {
  /** The document, as its path from the repository's root, and the line of the command. */
  file: string;
  line: number;
  /** The command as written, continuation lines joined, without the prompt. */
  command: string;
  /** The lines printed under it: the answer as shown (empty when none is). */
  shown: string;
}

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** `@file` of `--data-binary @file`: the body is that file's bytes. */
  bodyFile: string | undefined;
  /** `-i`: the answer shows its status line and headers before the body. */
  includeHeaders: boolean;
}

const FENCE = /^\s*```/;

/** Every `$ curl` example of the document's fenced blocks, in order. */
export function curlExamples(file: string, markdown: string): CurlExample[] {
  const lines = markdown.split('\n');
  const examples: CurlExample[] = [];
  let fenced = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced || !line.startsWith('$ curl ')) continue;
    const start = index;
    let command = line.slice(2);
    while (command.endsWith('\\') && index + 1 < lines.length) {
      index++;
      command = `${command.slice(0, -1).trimEnd()} ${lines[index]!.trim()}`;
    }
    const shown: string[] = [];
    // An answer with headers (`-i`) holds one blank line, between its headers and its body.
    let blankLines = command.includes(' -i ') ? 1 : 0;
    while (index + 1 < lines.length) {
      const next = lines[index + 1]!;
      if (FENCE.test(next) || next.startsWith('$ ')) break;
      if (next.trim() === '') {
        if (blankLines === 0) break;
        blankLines--;
      }
      shown.push(next);
      index++;
    }
    examples.push({ file, line: start + 1, command, shown: shown.join('\n').trim() });
  }
  return examples;
}

/** The words of a command line as a POSIX shell splits them, with `$NAME` taken from `variables`. */
export function shellWords(command: string, variables: Readonly<Record<string, string>>): string[] {
  const words: string[] = [];
  let word: string | null = null;
  const append = (text: string) => {
    word = (word ?? '') + text;
  };
  const variable = (rest: string): [string, number] => {
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)?.[0];
    if (!name) return ['$', 1];
    const value = variables[name];
    if (value === undefined) throw new Error(`The example uses $${name}, which the test does not set.`);
    return [value, name.length + 1];
  };
  for (let i = 0; i < command.length;) {
    const char = command[i]!;
    if (char === ' ' || char === '\t') {
      if (word !== null) words.push(word);
      word = null;
      i++;
    } else if (char === "'") {
      const end = command.indexOf("'", i + 1);
      if (end === -1) throw new Error(`An unclosed ' in: ${command}`);
      append(command.slice(i + 1, end));
      i = end + 1;
    } else if (char === '"') {
      i++;
      append('');
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) {
          append(command[i + 1]!);
          i += 2;
        } else if (command[i] === '$') {
          const [value, length] = variable(command.slice(i + 1));
          append(value);
          i += length;
        } else {
          append(command[i]!);
          i++;
        }
      }
      if (i >= command.length) throw new Error(`An unclosed " in: ${command}`);
      i++;
    } else if (char === '$') {
      const [value, length] = variable(command.slice(i + 1));
      append(value);
      i += length;
    } else if (char === '\\' && i + 1 < command.length) {
      append(command[i + 1]!);
      i += 2;
    } else {
      append(char);
      i++;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** The request a `curl` command makes, for the options the documents use. */
export function curlRequest(command: string, variables: Readonly<Record<string, string>>): CurlRequest {
  const [program, ...words] = shellWords(command, variables);
  if (program !== 'curl') throw new Error(`Not a curl command: ${command}`);
  const request: CurlRequest = {
    method: '',
    url: '',
    headers: {},
    body: undefined,
    bodyFile: undefined,
    includeHeaders: false,
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const value = () => {
      const next = words[++i];
      if (next === undefined) throw new Error(`${word} without its value in: ${command}`);
      return next;
    };
    if (word === '-s') continue;
    if (word === '-i') request.includeHeaders = true;
    else if (word === '-X') request.method = value();
    else if (word === '-H') {
      const header = value();
      const colon = header.indexOf(':');
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (word === '-d' || word === '--data-binary') {
      const data = value();
      if (word === '--data-binary' && data.startsWith('@')) request.bodyFile = data.slice(1);
      else request.body = data;
    } else if (word.startsWith('-')) throw new Error(`The option ${word} is not one the test knows, in: ${command}`);
    else request.url = word;
  }
  const hasBody = request.body !== undefined || request.bodyFile !== undefined;
  // As curl does: a body makes a POST, sent as a form unless a Content-Type is given.
  if (request.method === '') request.method = hasBody ? 'POST' : 'GET';
  if (hasBody) request.headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return request;
}
