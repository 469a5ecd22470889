import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** Debian's Postfix (package postfix), unless POSTFIX_PATH names another `postfix` command. */
export const POSTFIX_PATH = process.env['POSTFIX_PATH'] || '/usr/sbin/postfix';

/** The Postfix command, or an error saying how to install it: a test that needs it never skips silently. */
export function postfixBinary(): string {
  if (!existsSync(POSTFIX_PATH)) {
    throw new Error(
      `Postfix not found at ${POSTFIX_PATH}: install it with \`apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postfix\` (its system daemon need not run), or set POSTFIX_PATH to a postfix command.`,
    );
  }
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Postfix's master process runs as root: run this test as root (it runs as ${userInfo().username}).`,
    );
  }
  return POSTFIX_PATH;
}

/** Where Postfix sends the mail of one domain: the service's listener, over SMTP or LMTP. */
export interface PostfixRoute {
  domain: string;
  protocol: 'smtp' | 'lmtp';
  port: number;
}

export interface RunningPostfix {
  host: string;
  /** The port of its smtpd, on 127.0.0.1. */
  port: number;
  /** Its local domain: mail to any user there is accepted, and bounced by the local delivery agent. */
  localDomain: string;
  /** The lines of its transport map, as an operator writes them. */
  transport: string;
  /** Its mail log so far. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

/** A transport map line that sends a domain to the listener: `smtp:[host]:port` or `lmtp:inet:host:port`. */
export function transportLine({ domain, protocol, port }: PostfixRoute): string {
  return `${domain}    ${protocol === 'lmtp' ? `lmtp:inet:127.0.0.1:${port}` : `smtp:[127.0.0.1]:${port}`}`;
}

const MASTER_CF = `
# service  type  private unpriv chroot wakeup maxproc command
pickup     unix  n       -      n      60     1       pickup
cleanup    unix  n       -      n      -      0       cleanup
qmgr       unix  n       -      n      300    1       qmgr
rewrite    unix  -       -      n      -      -       trivial-rewrite
bounce     unix  -       -      n      -      0       bounce
defer      unix  -       -      n      -      0       bounce
trace      unix  -       -      n      -      0       bounce
verify     unix  -       -      n      -      1       verify
flush      unix  n       -      n      1000?  0       flush
proxymap   unix  -       -      n      -      -       proxymap
smtp       unix  -       -      n      -      -       smtp
lmtp       unix  -       -      n      -      -       lmtp
error      unix  -       -      n      -      -       error
retry      unix  -       -      n      -      -       error
discard    unix  -       -      n      -      -       discard
local      unix  -       n      n      -      -       local
anvil      unix  -       -      n      -      1       anvil
scache     unix  -       -      n      -      1       scache
postlog    unix-dgram n  -      n      -      1       postlogd
`;

/**
 * A Postfix of the test's own, started with `postfix -c <dir>`: its main.cf, master.cf, queue and
 * data directories and mail log in a temporary directory, its smtpd on a free port of 127.0.0.1 only.
 * It is the MX of `routes`' domains (`relay_domains`, as docs/mail.md sets it up) and sends their
 * mail to the listener through a transport map; `localDomain` is its own, where every user is
 * unknown: the local delivery agent bounces the mail after accepting it, and the bounce, a real
 * Postfix DSN, goes to the envelope sender. No DNS is looked up, no client is trusted as
 * `mynetworks`, and a deferred message is tried again within a second or two.
 */
export async function startPostfix(routes: readonly PostfixRoute[]): Promise<RunningPostfix> {
  const postfix = postfixBinary();
  const dir = await mkdtemp(path.join(tmpdir(), 'sl-postfix-'));
  // Postfix's own processes run as the user postfix, and reach the queue through here.
  await chmod(dir, 0o755);
  const config = path.join(dir, 'config');
  const data = path.join(dir, 'data');
  const maillog = path.join(dir, 'maillog');
  await mkdir(config);
  await mkdir(path.join(dir, 'queue'));
  await mkdir(data);
  await chown(data, ...(await postfixIds()));
  const port = await freePort();
  const localDomain = 'mail.postfix.test';
  const transport = routes.map(transportLine).join('\n');
  await writeFile(path.join(config, 'transport'), `${transport}\n`);
  const main = `
compatibility_level = 3.6
queue_directory = ${dir}/queue
data_directory = ${data}
maillog_file = ${maillog}
maillog_file_prefixes = ${dir}
myhostname = mx.postfix.test
mydomain = postfix.test
myorigin = $myhostname
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks =
mydestination = ${localDomain}
local_recipient_maps =
alias_maps =
alias_database =
relay_domains = ${routes.map((route) => route.domain).join(', ')}
transport_maps = texthash:${config}/transport
smtp_dns_support_level = disabled
smtp_host_lookup = native
lmtp_host_lookup = native
smtp_connect_timeout = 5s
lmtp_connect_timeout = 5s
queue_run_delay = 1s
minimal_backoff_time = 1s
maximal_backoff_time = 2s
biff = no
`;
  await writeFile(path.join(config, 'main.cf'), main);
  await writeFile(path.join(config, 'master.cf'), `${MASTER_CF}127.0.0.1:${port} inet n - n - - smtpd\n`);

  const log = async (): Promise<string> => readFile(maillog, 'utf8').catch(() => '');
  let masterPid: number | undefined;
  const killOnExit = (): void => {
    // The master leads its process group (as `postfix abort` knows it): the group is the instance.
    if (masterPid !== undefined) {
      try {
        process.kill(-masterPid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (masterPid !== undefined) {
      await run(postfix, ['-c', config, 'stop']).catch(killOnExit);
      masterPid = undefined;
    }
    await rm(dir, { recursive: true, force: true });
  };

  try {
    // `start` makes the queue's directories, checks them, and returns once the master listens.
    await run(postfix, ['-c', config, 'start'], { timeout: 30_000 });
    masterPid = Number((await readFile(path.join(dir, 'queue', 'pid', 'master.pid'), 'utf8')).trim());
    process.once('exit', killOnExit);
  } catch (error) {
    const detail = `${(error as Error).message}\n${await log()}`;
    await stop();
    throw new Error(`Postfix did not start: ${detail}`, { cause: error });
  }
  return { host: '127.0.0.1', port, localDomain, transport, log, stop };
}

/** The uid and gid of the user postfix, which the package makes. */
async function postfixIds(): Promise<[number, number]> {
  const passwd = await readFile('/etc/passwd', 'utf8');
  const line = passwd.split('\n').find((entry) => entry.startsWith('postfix:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error('No user postfix in /etc/passwd: install Postfix with `apt-get install -y postfix`.');
  }
  return [Number(uid), Number(gid)];
}
