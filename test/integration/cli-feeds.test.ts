import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findFeed } from '../../src/feeds/feed-repository.js';
import { useFeedApp } from '../support/feed-app.js';
import { basicAuth, resendSigner, sendGridSigner } from '../support/feed-signers.js';
import { runCli } from '../support/run-cli.js';

const app = useFeedApp();

function cli(...args: string[]) {
  return runCli(['feeds', ...args], { DATABASE_URL: app.database.url, LOG_LEVEL: 'debug' });
}

const accountName = () => `feeds-${randomBytes(4).toString('hex')}`;

describe('npm run cli -- feeds', () => {
  it('when a Postmark feed is created with --json, then one line gives its id, path and generated credentials, which the feed accepts', async () => {
    const run = await cli('create', '--account', accountName(), '--provider', 'postmark', '--json');
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0] as string);
    expect(Object.keys(created).sort()).toEqual([
      'account_id',
      'feed_id',
      'password',
      'path',
      'provider',
      'scope_from',
      'username',
    ]);
    expect(created.scope_from).toBeNull();
    expect(created.feed_id).toMatch(/^feed_[A-Za-z0-9_-]{32}$/);
    expect(created.path).toBe(`/feeds/${created.feed_id}`);
    expect(created.provider).toBe('postmark');
    expect(created.password.length).toBeGreaterThanOrEqual(32);

    const feed = await findFeed(app.database.db, created.feed_id);
    expect(feed?.accountId).toBe(created.account_id);
    const delivery = { RecordType: 'Delivery', MessageID: 'x', Recipient: 'john@example.com' };
    const answer = await fetch(`${app.server.url}${created.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(created.username, created.password) },
      body: JSON.stringify(delivery),
    });
    expect(answer.status).toBe(200);
    const wrong = await fetch(`${app.server.url}${created.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(created.username, 'guess') },
      body: JSON.stringify(delivery),
    });
    expect(wrong.status).toBe(401);
  });

  it('when an SES feed is created with two topics, then both are printed and kept; feeds list shows it without secrets', async () => {
    const name = accountName();
    const topics = ['arn:aws:sns:us-east-1:123456789012:bounces', 'arn:aws:sns:eu-west-1:123456789012:complaints'];
    const run = await cli(
      'create',
      '--account',
      name,
      '--provider',
      'ses',
      ...topics.flatMap((t) => ['--topic-arn', t]),
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const created = JSON.parse(run.stdout);
    expect(created.topic_arns).toEqual(topics);

    const secret = resendSigner().secret;
    const resend = await cli('create', '--account', name, '--provider', 'resend', '--signing-secret', secret, '--json');
    expect(resend.code, resend.stderr).toBe(0);
    expect(resend.stdout + resend.stderr).not.toContain(secret);

    const listed = await cli('list', '--account', name, '--json');
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(rows.map((row) => row.provider)).toEqual(['ses', 'resend']);
    expect(rows[0]).toMatchObject({ feed_id: created.feed_id, account: name, path: created.path });
    expect(listed.stdout).not.toContain(secret);
  });

  it('when a feed is removed, then its requests are answered 404 and removing it again fails', async () => {
    const signer = sendGridSigner();
    const run = await cli(
      'create',
      '--account',
      accountName(),
      '--provider',
      'sendgrid',
      '--public-key',
      signer.publicKey,
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const { feed_id: feedId, path } = JSON.parse(run.stdout);
    const body = '[]';
    const before = await fetch(`${app.server.url}${path}`, { method: 'POST', headers: signer.headers(body), body });
    expect(before.status).toBe(200);

    const removed = await cli('remove', feedId);
    expect(removed.code, removed.stderr).toBe(0);
    const after = await fetch(`${app.server.url}${path}`, { method: 'POST', headers: signer.headers(body), body });
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ statusCode: 404, name: 'not_found', message: 'Feed not found.' });
    const again = await cli('remove', feedId);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`No feed with id ${feedId}`);
  });

  it('when a feed is created to read the message stream, then it is kept with the feed and printed', async () => {
    const run = await cli('create', '--account', accountName(), '--provider', 'postmark', '--scope-from', 'stream');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Scope of each message read from: stream');
    const id = /Created postmark feed (feed_\S+)/.exec(run.stdout)?.[1];
    expect((await findFeed(app.database.db, id!))?.scopeFrom).toBe('stream');
  });

  it('when a provider’s option is missing, malformed or another provider’s, then nothing is created and the error says which', async () => {
    const name = accountName();
    const cases: [string[], RegExp][] = [
      [['--provider', 'mailgun'], /mailgun feed needs --signing-key/],
      [['--provider', 'ses', '--topic-arn', 'bounces'], /not an SNS topic ARN/],
      [['--provider', 'sendgrid', '--public-key', 'bm90IGEga2V5'], /ECDSA P-256 public key/],
      [['--provider', 'resend', '--signing-secret', 'secret'], /whsec_/],
      [['--provider', 'postmark', '--signing-key', 'k'], /--signing-key is not an option of postmark feeds/],
      [
        ['--provider', 'postmark', '--scope-from', 'category'],
        /--scope-from of a Postmark feed is one of stream, tag:<name>; got "category"/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await cli('create', '--account', name, ...args);
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr).toMatch(message);
    }
    const listed = await cli('list', '--json');
    expect(listed.stdout).not.toContain(name);
  });
});
