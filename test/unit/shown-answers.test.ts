import { describe, expect, it } from 'vitest';
import { curlExamples, curlRequest } from '../support/markdown-examples.js';
import { answerProblems, ShownIds } from '../support/shown-answers.js';

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: new Headers({ 'content-type': 'application/json', ...headers }),
  text: typeof body === 'string' ? body : JSON.stringify(body),
});

const SHOWN_ID = '01a1ffcd-4b5a-754b-9afa-a027b6a581bb';
const REAL_ID = '019d0000-0000-7000-8000-000000000001';

describe('the examples of a Markdown document', () => {
  it('when a fenced block holds commands, then each is read with its continuation lines and the answer under it', () => {
    const markdown = [
      'Text with `$ curl` in it.',
      '```',
      `$ curl -s -X POST 'http://127.0.0.1:3000/a' -H "Authorization: Bearer $TOKEN" \\`,
      `    -H 'Content-Type: application/json' -d '{"email":"a@example.com"}'`,
      '{"object":"suppression"}',
      '',
      '$ curl -s http://127.0.0.1:3000/b',
      '{"statusCode":401}',
      '```',
    ].join('\n');

    const examples = curlExamples('doc.md', markdown);

    expect(examples.map(({ line, shown }) => ({ line, shown }))).toEqual([
      { line: 3, shown: '{"object":"suppression"}' },
      { line: 7, shown: '{"statusCode":401}' },
    ]);
    expect(curlRequest(examples[0]!.command, { TOKEN: 'k' })).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:3000/a',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: '{"email":"a@example.com"}',
      bodyFile: undefined,
      includeHeaders: false,
    });
  });

  it('when a command names a variable the test does not set, or an option it does not know, then reading it fails', () => {
    expect(() => curlRequest('curl -H "Authorization: Bearer $OTHER" http://x/', {})).toThrow(/\$OTHER/);
    expect(() => curlRequest('curl -L http://x/', {})).toThrow(/-L/);
  });
});

describe('an answer compared with the one shown', () => {
  it('when only ids and times differ, then it matches, and the shown id stands for the real one from then on', () => {
    const ids = new ShownIds();
    const shown = JSON.stringify({ id: SHOWN_ID, created_at: '2026-11-21T20:30:06.685Z', origin: 'manual' });

    const problems = answerProblems(
      shown,
      answer(201, { id: REAL_ID, created_at: '2026-12-01T08:00:00.000Z', origin: 'manual' }),
      { ids, includeHeaders: false },
    );

    expect(problems).toEqual([]);
    expect(ids.substitute(`/suppressions/${SHOWN_ID}`)).toBe(`/suppressions/${REAL_ID}`);
  });

  it('when a value, a field or the status differs, then each difference is named', () => {
    const ids = new ShownIds();
    const shown = JSON.stringify({ origin: 'manual', scope: null, settings: { complaint_scope: 'message' } });

    const problems = answerProblems(shown, answer(500, { origin: 'bounce', settings: { extra: 1 } }), {
      ids,
      includeHeaders: false,
    });

    expect(problems).toEqual([
      'the service answered 500, the document shows a success',
      "answer: the service's answer lacks scope",
      'answer.origin: the document shows "manual", the service answered "bounce"',
      "answer.settings: the service's answer lacks complaint_scope",
      'answer.settings: the document does not show extra',
    ]);
  });

  it('when one shown id comes back as two real ones, then the second is named', () => {
    const ids = new ShownIds();
    answerProblems(JSON.stringify({ id: SHOWN_ID }), answer(200, { id: REAL_ID }), { ids, includeHeaders: false });

    const problems = answerProblems(
      JSON.stringify({ id: SHOWN_ID }),
      answer(200, { id: '019d0000-0000-7000-8000-000000000002' }),
      { ids, includeHeaders: false },
    );

    expect(problems).toEqual([expect.stringMatching(/stood for 019d0000-0000-7000-8000-000000000001 before/)]);
  });

  it('when an answer shows its status line and headers, then they are compared, `…` standing for what the document cuts', () => {
    const shown = [
      'HTTP/1.1 201 Created',
      'Set-Cookie: session=…; Path=/console; Expires=Mon, 23 Nov 2026 11:30:06 GMT',
      '',
      '{"object":"console_session"}',
    ].join('\n');
    const cookie = (path: string) => `session=Df98; Path=${path}; Expires=Sat, 28 Nov 2026 04:09:43 GMT`;
    const compare = (status: number, path: string) =>
      answerProblems(shown, answer(status, { object: 'console_session' }, { 'set-cookie': cookie(path) }), {
        ids: new ShownIds(),
        includeHeaders: true,
      });

    expect(compare(201, '/console')).toEqual([]);
    expect(compare(200, '/')).toEqual([
      expect.stringMatching(/^Set-Cookie: the document shows/),
      'the service answered 200, the document shows 201',
    ]);
  });
});
