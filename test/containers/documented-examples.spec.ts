import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PACKAGE = 'suppression-list-service';

async function testingDoc(): Promise<string> {
  return readFile(join(ROOT, 'docs/testing.md'), 'utf8');
}

/** The code blocks of `markdown` in `language`, without their fences. */
function codeBlocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(
    (match) => match[1]!,
  );
}

describe('the examples of docs/testing.md', () => {
  it('when the page shows the vitest example, then it is vitest-example.spec.ts as this suite runs it, under the package’s name', async () => {
    const spec = await readFile(join(ROOT, 'test/containers/vitest-example.spec.ts'), 'utf8');
    const asUsersWriteIt = spec.replaceAll("'../../src/testcontainers/index.js'", `'${PACKAGE}/testcontainers'`);
    expect(asUsersWriteIt).not.toBe(spec);
    expect(codeBlocks(await testingDoc(), 'ts')).toContain(asUsersWriteIt);
  });

  it('when the page’s jest example runs through jest’s CLI against the package as installed, then its test passes', async () => {
    const [example] = codeBlocks(await testingDoc(), 'js').filter((block) =>
      block.includes(`require('${PACKAGE}/testcontainers')`),
    );
    expect(example).toBeDefined();
    // A project of its own: the example and a jest configuration, with the package linked into its
    // node_modules as an install puts it, so that `require` goes through the package's exports to
    // the CommonJS build.
    const project = await mkdtemp(join(tmpdir(), 'sl-jest-example-'));
    try {
      await mkdir(join(project, 'node_modules'));
      await symlink(ROOT, join(project, 'node_modules', PACKAGE), 'dir');
      await writeFile(join(project, 'suppressions.test.cjs'), example!);
      await writeFile(
        join(project, 'jest.config.cjs'),
        "module.exports = { rootDir: __dirname, testMatch: ['<rootDir>/*.test.cjs'], testEnvironment: 'node' };\n",
      );
      const jest = join(ROOT, 'node_modules/jest/bin/jest.js');
      const run = await promisify(execFile)(
        process.execPath,
        [jest, '--ci', '--config', join(project, 'jest.config.cjs')],
        {
          cwd: project,
        },
      ).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
      expect(run.stderr, run.stdout).toMatch(/Tests:\s+1 passed, 1 total/);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
    // jest's own start, then the example's container's, which its beforeAll gives two minutes.
  }, 240_000);
});
