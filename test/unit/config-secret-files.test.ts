import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { SECRET_SETTINGS } from '../../src/secret-files.js';
import { configErrorFor } from '../support/config-error.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sl-secrets-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A file of its own in the test's directory, holding `content`. */
async function secretFile(name: string, content: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  return file;
}

describe('secrets read from files', () => {
  it('when DATABASE_URL_FILE and REDIS_URL_FILE name files, then their contents are the settings, the trailing newline trimmed', async () => {
    const config = loadConfig({
      DATABASE_URL_FILE: await secretFile('database-url', 'postgres://app:s3cret@db.internal:5432/suppressions\n'),
      REDIS_URL_FILE: await secretFile('redis-url', 'rediss://:s3cret@cache.internal:6380\r\n'),
    });
    expect(config.DATABASE_URL).toBe('postgres://app:s3cret@db.internal:5432/suppressions');
    expect(config.REDIS_URL).toBe('rediss://:s3cret@cache.internal:6380');
  });

  it('when the tokens and the replicas come from files, then they are parsed as if set directly', async () => {
    const config = loadConfig({
      ADMIN_TOKEN_FILE: await secretFile('admin-token', 'admin-token-value\n'),
      METRICS_TOKEN_FILE: await secretFile('metrics-token', 'metrics-token-value'),
      DATABASE_READ_URL_FILE: await secretFile('read-urls', 'postgres://r@replica-1/sl, postgres://r@replica-2/sl\n'),
    });
    expect(config).toMatchObject({
      ADMIN_TOKEN: 'admin-token-value',
      METRICS_TOKEN: 'metrics-token-value',
      DATABASE_READ_URL: ['postgres://r@replica-1/sl', 'postgres://r@replica-2/sl'],
    });
  });

  it('when a secret ends with spaces or holds several lines, then only one trailing newline is taken off', async () => {
    const config = loadConfig({ ADMIN_TOKEN_FILE: await secretFile('spaced', ' two words \n\n') });
    expect(config.ADMIN_TOKEN).toBe(' two words \n');
  });

  it.each(SECRET_SETTINGS)('when both %s and its _FILE are set, then a ConfigError names both', async (name) => {
    const file = await secretFile(`both-${name}`, 'postgres://a@b/c\n');
    const error = configErrorFor({ [name]: 'postgres://a@b/c', [`${name}_FILE`]: file });
    expect(error.message).toContain(`${name} and ${name}_FILE: set one or the other, not both`);
  });

  it('when the file does not exist, then a ConfigError names the variable and the path', () => {
    const missing = path.join(dir, 'no-such-file');
    expect(configErrorFor({ DATABASE_URL_FILE: missing }).message).toBe(
      `Invalid configuration: DATABASE_URL_FILE: cannot read ${missing} (no such file)`,
    );
  });

  it('when the path is a directory, then a ConfigError names the variable and the path', () => {
    expect(configErrorFor({ REDIS_URL_FILE: dir }).message).toContain(
      `REDIS_URL_FILE: cannot read ${dir} (is a directory)`,
    );
  });

  it.skipIf(process.getuid?.() === 0)(
    'when the file cannot be read, then a ConfigError names the variable and the path, never the content',
    async () => {
      const file = await secretFile('unreadable', 'sl-admin-secret-never-shown\n');
      await chmod(file, 0o000);
      const { message } = configErrorFor({ ADMIN_TOKEN_FILE: file });
      expect(message).toContain(`ADMIN_TOKEN_FILE: cannot read ${file} (permission denied)`);
      expect(message).not.toContain('sl-admin-secret-never-shown');
    },
  );

  it.each(['', '\n', '\r\n'])('when the file holds only %j, then a ConfigError says it is empty', async (content) => {
    const file = await secretFile(`empty-${content.length}`, content);
    expect(configErrorFor({ METRICS_TOKEN_FILE: file }).message).toContain(`METRICS_TOKEN_FILE: ${file} is empty`);
  });

  it('when a file holds a bad value, then the ConfigError names the setting and its file, never the value', async () => {
    const file = await secretFile('bad-url', 'mysql://app:hunter2@db.internal/suppressions\n');
    const { message } = configErrorFor({ DATABASE_URL_FILE: file });
    expect(message).toContain('DATABASE_URL (read from DATABASE_URL_FILE)');
    expect(message).not.toContain('hunter2');
  });

  it('when a _FILE variable is empty, then it counts as unset and the default applies', () => {
    expect(loadConfig({ REDIS_URL_FILE: '' }).REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('when a setting that is not a secret has a _FILE variable, then it is ignored', async () => {
    const config = loadConfig({ PORT_FILE: await secretFile('port', '8080\n') });
    expect(config.PORT).toBe(3000);
  });
});
