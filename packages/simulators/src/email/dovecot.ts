import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { delimiter, join } from 'node:path';
import { ImapFlow } from 'imapflow';

/**
 * A real IMAP server for tests: Debian's dovecot (dovecot-imapd), started by the test on
 * 127.0.0.1 with a configuration written to a temporary directory: plain-text logins from a
 * passwd-file, maildir mail under that directory, no TLS, every process as the current user (as
 * root, which dovecot refuses for logins and mail, the package's unprivileged users). The
 * test side reads and writes mailboxes through its own IMAP connection (imapflow).
 */
export interface DovecotUser {
  name: string;
  password: string;
}

export interface DovecotServer {
  host: string;
  port: number;
  /** Adds a raw message to a user's mailbox (IMAP APPEND), as a mail delivery would (at `date`, now by default); answers its UID. */
  append(user: string, mailbox: string, raw: string | Buffer, options?: { flags?: string[]; date?: Date }): Promise<number>;
  /** The messages of a user's mailbox: UID, flags and raw source. */
  messages(user: string, mailbox: string): Promise<{ uid: number; flags: string[]; source: string }[]>;
  /** Sets or clears flags of a message (the test reading mail in a mail client). */
  setFlags(user: string, mailbox: string, uid: number, flags: string[]): Promise<void>;
  /** Dovecot's own log, for a failing test's message. */
  log(): Promise<string>;
  close(): Promise<void>;
}

/** The dovecot binary, or null when dovecot-imapd is not installed (`pnpm test` and .ci/run install it). */
function dovecotBinary(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    const path = join(dir, 'dovecot');
    if (dir && existsSync(path)) return path;
  }
  return null;
}

/** A system user's uid and gid from /etc/passwd, or null. */
async function systemUser(name: string): Promise<{ uid: number; gid: number } | null> {
  const line = (await readFile('/etc/passwd', 'utf8').catch(() => '')).split('\n').find((l) => l.startsWith(`${name}:`));
  const fields = line?.split(':');
  return fields ? { uid: Number(fields[2]), gid: Number(fields[3]) } : null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export interface DovecotOptions {
  users: DovecotUser[];
  /**
   * Also take OAuth 2.0 logins (XOAUTH2, OAUTHBEARER): dovecot posts each access token to this
   * introspection address (RFC 7662, `token=...`) and takes the login when the answer is
   * `{"active": true, "username": <the login's user>}`.
   */
  oauth2IntrospectionUrl?: string;
}

export async function startDovecot(options: DovecotOptions): Promise<DovecotServer> {
  const binary = dovecotBinary();
  if (!binary) throw new Error('dovecot is not installed (apt-get install dovecot-imapd)');
  const dir = await mkdtemp(join(tmpdir(), 'atende-dovecot-'));
  const port = await freePort();
  const me = userInfo();
  const group = (await readFile('/etc/group', 'utf8').catch(() => ''))
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[2] === String(me.gid))?.[0];
  // Dovecot refuses root for imap-login and for mail access (CI runs as root): there the login
  // process and the mail run as the unprivileged users the package made, owning the mail folders.
  const root = me.uid === 0;
  const loginUser = root ? ((await systemUser('dovenull')) ? 'dovenull' : 'nobody') : me.username;
  const mailUser = root ? ((await systemUser('dovecot')) ?? { uid: 65534, gid: 65534 }) : { uid: me.uid, gid: me.gid };
  await Promise.all(['run', 'state', 'mail', 'home'].map((sub) => mkdir(join(dir, sub), { recursive: true })));
  if (root) {
    await chmod(dir, 0o755);
    await Promise.all(['mail', 'home'].map((sub) => chown(join(dir, sub), mailUser.uid, mailUser.gid)));
  }
  await writeFile(join(dir, 'passwd'), options.users.map((u) => `${u.name}:{PLAIN}${u.password}::::::\n`).join(''), { mode: 0o600 });
  const log = join(dir, 'dovecot.log');
  const config = `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${log}
info_log_path = ${log}
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${options.oauth2IntrospectionUrl ? ' xoauth2 oauthbearer' : ''}
# A refused login answers at once (dovecot's own penalty still delays the next ones from the same address by seconds).
auth_failure_delay = 0
default_internal_user = ${me.username}
default_login_user = ${loginUser}
${group ? `default_internal_group = ${group}` : ''}
first_valid_uid = ${Math.min(mailUser.uid, 500)}
first_valid_gid = 0
mail_uid = ${mailUser.uid}
mail_gid = ${mailUser.gid}
mail_location = maildir:${dir}/mail/%u
${
  options.oauth2IntrospectionUrl
    ? `passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = ${dir}/oauth2.conf.ext
}`
    : ''
}
passdb {
  driver = passwd-file
  mechanisms = plain login
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=${mailUser.uid} gid=${mailUser.gid} home=${dir}/home/%u
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \\Sent
    auto = create
  }
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service auth {
  chroot =
}
service anvil {
  chroot =
}
`;
  if (options.oauth2IntrospectionUrl) {
    await writeFile(
      join(dir, 'oauth2.conf.ext'),
      [
        'introspection_mode = post',
        `introspection_url = ${options.oauth2IntrospectionUrl}`,
        'username_attribute = username',
        'active_attribute = active',
        'active_value = true',
        '',
      ].join('\n'),
    );
  }
  const configPath = join(dir, 'dovecot.conf');
  await writeFile(configPath, config);
  const child: ChildProcess = spawn(binary, ['-F', '-c', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let exited = false;
  // A test process that ends without close() (a crash, a time-out) takes its dovecot with it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  const readLog = async () => `${stderr}${await readFile(log, 'utf8').catch(() => '')}`;
  const deadline = Date.now() + 15_000;
  while (!(await accepts(port))) {
    if (exited || Date.now() > deadline) {
      const text = await readLog();
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
      throw new Error(`dovecot did not start: ${text.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const passwords = new Map(options.users.map((u) => [u.name, u.password]));

  /** One IMAP session of the test for `user`. */
  async function session<T>(user: string, fn: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      auth: { user, pass: passwords.get(user) ?? '' },
      logger: false,
    });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return await fn(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  return {
    host: '127.0.0.1',
    port,
    append: (user, mailbox, raw, options = {}) =>
      session(user, async (client) => {
        const appended = await client.append(mailbox, raw, options.flags ?? [], options.date);
        if (!appended || appended.uid === undefined) throw new Error(`APPEND to ${mailbox} answered no UID`);
        return appended.uid;
      }),
    messages: (user, mailbox) =>
      session(user, async (client) => {
        const lock = await client.getMailboxLock(mailbox);
        try {
          if (client.mailbox && client.mailbox.exists === 0) return [];
          const all = await client.fetchAll('1:*', { uid: true, flags: true, source: true });
          return all.map((m) => ({ uid: m.uid, flags: [...(m.flags ?? [])], source: m.source?.toString('utf8') ?? '' }));
        } finally {
          lock.release();
        }
      }),
    setFlags: (user, mailbox, uid, flags) =>
      session(user, async (client) => {
        const lock = await client.getMailboxLock(mailbox);
        try {
          await client.messageFlagsSet(String(uid), flags, { uid: true });
        } finally {
          lock.release();
        }
      }),
    log: readLog,
    async close() {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (!exited) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
