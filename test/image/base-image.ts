import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { run, lastLine, type CommandResult } from './podman.js';

/**
 * The local stand-in for node:20-bookworm-slim, for machines that cannot pull from Docker Hub: a
 * minimal Debian bookworm from the machine's own Debian mirror, with this machine's Node.js and npm
 * in /usr/local as the official image has them, and the `node` user (uid 1000) the Dockerfile runs as.
 */
export const STAND_IN_IMAGE = 'localhost/node:20-bookworm-slim-local';

const VERSION_LABEL = 'node.version';

/** The Debian mirror this machine's apt uses for bookworm, else Debian's own. */
export function debianMirror(): string {
  const found: string[] = [];
  const sourcesDir = '/etc/apt/sources.list.d';
  const files = existsSync(sourcesDir)
    ? readdirSync(sourcesDir)
        .filter((name) => name.endsWith('.sources') || name.endsWith('.list'))
        .map((name) => join(sourcesDir, name))
    : [];
  for (const file of ['/etc/apt/sources.list', ...files]) {
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    // deb822 stanzas: URIs and Suites lines of the same paragraph.
    for (const stanza of text.split(/\n\s*\n/)) {
      const uris = /^URIs:\s*(\S+)/m.exec(stanza)?.[1];
      const suites = /^Suites:\s*(.+)$/m.exec(stanza)?.[1]?.split(/\s+/) ?? [];
      if (uris !== undefined && suites.includes('bookworm')) found.push(uris);
    }
    // One-line form: deb [options] URI suite components
    for (const match of text.matchAll(/^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+bookworm\s/gm)) {
      if (match[1] !== undefined) found.push(match[1]);
    }
  }
  return found[0] ?? 'http://deb.debian.org/debian';
}

async function step(what: string, result: Promise<CommandResult>): Promise<void> {
  const { code, stderr } = await result;
  if (code !== 0) throw new Error(`${what} failed (exit ${code}): ${lastLine(stderr)}`);
}

/**
 * The stand-in, built once and kept: it is rebuilt only when this machine's Node.js version
 * changes. Returns what happened, in words.
 */
export async function ensureStandInImage(global: readonly string[], logFile: string): Promise<string> {
  const existing = await run('podman', [
    ...global,
    'image',
    'inspect',
    '--format',
    `{{index .Labels "${VERSION_LABEL}"}}`,
    STAND_IN_IMAGE,
  ]);
  if (existing.code === 0 && existing.stdout.trim() === process.version) {
    return `${STAND_IN_IMAGE} (Node.js ${process.version}) kept from an earlier run`;
  }
  if (process.getuid?.() !== 0) {
    throw new Error(`building ${STAND_IN_IMAGE} needs root (debootstrap and chroot); run as root, or set NODE_IMAGE`);
  }
  if ((await run('sh', ['-c', 'command -v debootstrap'])).code !== 0) {
    throw new Error(`building ${STAND_IN_IMAGE} needs debootstrap (apt-get install debootstrap), or set NODE_IMAGE`);
  }
  const mirror = debianMirror();
  const work = await mkdtemp('/var/tmp/sl-node-base-');
  const root = join(work, 'rootfs');
  try {
    await step(
      'debootstrap',
      run('debootstrap', ['--variant=minbase', 'bookworm', root, mirror], { logFile, timeoutMs: 15 * 60_000 }),
    );
    // The official image's user, made the way its Dockerfile makes it.
    await step('groupadd', run('chroot', [root, 'groupadd', '--gid', '1000', 'node']));
    await step(
      'useradd',
      run('chroot', [
        root,
        'useradd',
        '--uid',
        '1000',
        '--gid',
        'node',
        '--shell',
        '/bin/bash',
        '--create-home',
        'node',
      ]),
    );
    // What a slim image leaves out: package caches and lists, documentation.
    await step(
      'trim',
      run('sh', [
        '-c',
        'rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/* "$1"/usr/share/doc/* "$1"/usr/share/man/*',
        'sh',
        root,
      ]),
    );
    const npmDir = dirname(dirname(realpathSync(join(dirname(process.execPath), 'npm'))));
    await step(
      'copy Node.js and npm',
      run('sh', [
        '-c',
        [
          'set -e',
          'mkdir -p "$1/usr/local/bin" "$1/usr/local/lib/node_modules"',
          'cp "$2" "$1/usr/local/bin/node"',
          'cp -a "$3" "$1/usr/local/lib/node_modules/npm"',
          'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"',
          'ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
        ].join('\n'),
        'sh',
        root,
        process.execPath,
        npmDir,
      ]),
    );
    const tar = spawn('tar', ['-C', root, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await step(
      'podman import',
      run(
        'podman',
        [
          ...global,
          'import',
          '--change',
          'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
          '--change',
          `ENV NODE_VERSION=${process.version.slice(1)}`,
          '--change',
          `LABEL ${VERSION_LABEL}=${process.version}`,
          '--change',
          'CMD ["node"]',
          '-',
          STAND_IN_IMAGE,
        ],
        { stdin: tar.stdout, logFile },
      ),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return `${STAND_IN_IMAGE} built: Debian bookworm (minbase, from ${mirror}) with this machine's Node.js ${process.version}`;
}
