import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { lastLine, run, type CommandResult } from './podman.js';

/**
 * The image every local stand-in is built on, for machines that cannot pull from Docker Hub: a
 * minimal Debian bookworm (debootstrap's minbase) from the machine's own Debian mirror, with apt's
 * sources pointing at that mirror, so that a build can install Debian's packages on it.
 */
export const DEBIAN_BASE_IMAGE = 'localhost/debian:bookworm-minbase-local';

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

export async function step(what: string, result: Promise<CommandResult>): Promise<void> {
  const { code, stderr } = await result;
  if (code !== 0) throw new Error(`${what} failed (exit ${code}): ${lastLine(stderr)}`);
}

/** Whether podman has `image`. */
export async function imageExists(global: readonly string[], image: string): Promise<boolean> {
  return (await run('podman', [...global, 'image', 'exists', image])).code === 0;
}

/**
 * The Debian base, built once and kept (about three minutes, most of it downloading). Needs root
 * (debootstrap and chroot) and debootstrap. Returns what happened, in words.
 */
export async function ensureDebianBase(global: readonly string[], logFile: string): Promise<string> {
  if (await imageExists(global, DEBIAN_BASE_IMAGE)) return `${DEBIAN_BASE_IMAGE} kept from an earlier run`;
  if (process.getuid?.() !== 0) {
    throw new Error(`building ${DEBIAN_BASE_IMAGE} needs root (debootstrap and chroot)`);
  }
  if ((await run('sh', ['-c', 'command -v debootstrap'])).code !== 0) {
    throw new Error(`building ${DEBIAN_BASE_IMAGE} needs debootstrap (apt-get install debootstrap)`);
  }
  const mirror = debianMirror();
  const work = await mkdtemp('/var/tmp/sl-debian-base-');
  const root = join(work, 'rootfs');
  try {
    await step(
      'debootstrap',
      run('debootstrap', ['--variant=minbase', 'bookworm', root, mirror], { logFile, timeoutMs: 15 * 60_000 }),
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
          `LABEL debian.mirror=${mirror}`,
          '--change',
          'CMD ["bash"]',
          '-',
          DEBIAN_BASE_IMAGE,
        ],
        { stdin: tar.stdout, logFile },
      ),
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return `${DEBIAN_BASE_IMAGE} built: Debian bookworm (minbase, from ${mirror})`;
}
