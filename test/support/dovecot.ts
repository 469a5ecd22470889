import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { sleep } from './sleep.js';
import { stopProgram } from './stop-program.js';

/** Debian's Dovecot (package dovecot-imapd), unless DOVECOT_PATH names another. */
export const DOVECOT_PATH = process.env['DOVECOT_PATH'] || '/usr/sbin/dovecot';

/** The Dovecot binary, or an error saying how to install it: a test that needs it never skips silently. */
export function dovecotBinary(): string {
  if (!existsSync(DOVECOT_PATH)) {
    throw new Error(
      `Dovecot not found at ${DOVECOT_PATH}: install it with \`apt-get update && apt-get install -y dovecot-imapd\`, or set DOVECOT_PATH to a dovecot executable.`,
    );
  }
  return DOVECOT_PATH;
}

export interface RunningDovecot {
  host: string;
  port: number;
  user: string;
  password: string;
  /** `imap://<user>@127.0.0.1:<port>/<folder>`, as IMAP_URL takes it. */
  url(folder?: string): string;
  /** The maildir of a folder of the user: INBOX is the maildir's root, others are `.<name>`. */
  maildir(folder?: string): string;
  /** Delivers a message as an MDA does: written to `tmp/`, then renamed into `new/`. */
  deliver(message: Buffer, folder?: string): Promise<void>;
  stop(): Promise<void>;
}

/** Resolves once something accepts connections on the port. */
async function accepting(port: number): Promise<boolean> {
  const socket = net.connect(port, '127.0.0.1');
  try {
    await once(socket, 'connect');
    return true;
  } catch {
    return false;
  } finally {
    socket.destroy();
  }
}

/**
 * A Dovecot IMAP server of the test's own: a free port of 127.0.0.1, plain IMAP (`ssl = no`), one
 * user with a plain password in a passwd-file, maildirs in a temporary directory. Runs as the test's
 * own child process (`dovecot -F`) and is stopped with `stop()`, or when the test process exits.
 */
export async function startDovecot(): Promise<RunningDovecot> {
  const binary = dovecotBinary();
  const dir = await mkdtemp(path.join(tmpdir(), 'sl-dovecot-'));
  // Dovecot's auth process runs as its own user, and reads the passwd-file from here.
  await chmod(dir, 0o755);
  const port = await freePort();
  const user = 'bounces';
  const password = randomBytes(12).toString('hex');
  // Dovecot never gives mail access to root: as root, the mail is nobody's (65534).
  const own = process.getuid?.() ?? 0;
  const uid = own === 0 ? 65_534 : own;
  const gid = own === 0 ? 65_534 : (process.getgid?.() ?? 0);
  await mkdir(path.join(dir, 'mail'));
  await chown(path.join(dir, 'mail'), uid, gid);
  await writeFile(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}:::::\n`);
  const config = `
protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = sl-test-${path.basename(dir)}
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_uid = ${uid}
mail_gid = ${gid}
first_valid_uid = ${uid}
first_valid_gid = ${gid}
mail_home = ${dir}/home/%u
mail_location = maildir:${dir}/mail/%u
mailbox_idle_check_interval = 1 secs
namespace inbox {
  inbox = yes
  separator = .
}
passdb {
  driver = passwd-file
  args = ${dir}/passwd
}
userdb {
  driver = passwd-file
  args = ${dir}/passwd
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
  await writeFile(path.join(dir, 'dovecot.conf'), config);
  const child = spawn(binary, ['-F', '-c', path.join(dir, 'dovecot.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
  const killOnExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const log = async (): Promise<string> =>
    `${errors}${await readFile(path.join(dir, 'dovecot.log'), 'utf8').catch(() => '')}`;

  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    await stopProgram(child, dir);
  };

  try {
    for (const deadline = Date.now() + 20_000; ; await sleep(50)) {
      if (child.exitCode !== null) throw new Error(`Dovecot exited with ${child.exitCode}:\n${await log()}`);
      if (await accepting(port)) break;
      if (Date.now() > deadline) throw new Error(`Dovecot did not listen within 20 s:\n${await log()}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  const maildir = (folder = 'INBOX'): string =>
    path.join(dir, 'mail', user, folder.toUpperCase() === 'INBOX' ? '' : `.${folder}`);
  let delivered = 0;
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    url: (folder = 'INBOX') => `imap://${user}@127.0.0.1:${port}/${encodeURIComponent(folder)}`,
    maildir,
    async deliver(message, folder) {
      const root = maildir(folder);
      for (const made of [
        path.join(dir, 'mail', user),
        root,
        ...['tmp', 'new', 'cur'].map((sub) => path.join(root, sub)),
      ]) {
        await mkdir(made, { recursive: true });
        await chown(made, uid, gid);
      }
      delivered += 1;
      const name = `${Math.floor(Date.now() / 1000)}.P${process.pid}Q${delivered}.sl-test`;
      await writeFile(path.join(root, 'tmp', name), message);
      await chown(path.join(root, 'tmp', name), uid, gid);
      await rename(path.join(root, 'tmp', name), path.join(root, 'new', name));
    },
    stop,
  };
}
