import { createServer, type Server } from 'node:http';
import { EmailAccessTokens, encryptCredentials, outboundClient, outboundPolicy, parseSecretsKey } from '@atende/channels';
import { queues, type ChannelInboundJob } from '@atende/contract';
import { startDovecot, type DovecotServer } from '@atende/simulators/dovecot';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmailImap, type EmailImapLog, type EmailImapReaders } from './email-imap';
import { useInboundHarness } from './harness';
import { processInbound } from './processor';

/**
 * E-mail channels reading the team's own mailbox: a real IMAP server (dovecot) started
 * by the test, mail put in the INBOX by IMAP APPEND as a delivery would, read by the worker's IMAP
 * reader (IDLE, polling, the last UID kept in the database), queued as channel-inbound like
 * forwarded mail and processed into conversations.
 */
const USER = 'suporte@loja.test';
const PASSWORD = 'imap-pass-123';
/** A mailbox with mail from before its channel existed. */
const SALES = 'vendas@loja.test';
/** A mailbox that takes no password: OAuth 2.0 only (XOAUTH2). */
const OAUTH_USER = 'oauth@loja.test';
const h = useInboundHarness({ name: 'Mailbox', contentType: 'message/rfc822' });
// The harness's key: channels it creates are encrypted with it.
const secretsKey = parseSecretsKey(Buffer.alloc(32, 7).toString('base64'));
let imap: DovecotServer;
let running: EmailImapReaders[] = [];
/** The OAuth provider's stand-in: its token endpoint, and the introspection dovecot checks access tokens with. */
let provider: Server;
let providerUrl = '';
const accessTokens = new Map<string, string>();
const introspected: string[] = [];
const logged: { level: 'debug' | 'info' | 'warn'; details: Record<string, unknown>; message: string }[] = [];
const log: EmailImapLog = {
  debug: (details, message) => logged.push({ level: 'debug', details: details as Record<string, unknown>, message }),
  info: (details, message) => logged.push({ level: 'info', details: details as Record<string, unknown>, message }),
  warn: (details, message) => logged.push({ level: 'warn', details: details as Record<string, unknown>, message }),
};

beforeAll(async () => {
  provider = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      res.setHeader('content-type', 'application/json');
      if (req.url === '/token') {
        if (form.get('client_id') !== 'atende-client' || form.get('refresh_token') !== 'oauth-refresh') {
          res.statusCode = 400;
          return res.end(JSON.stringify({ error: 'invalid_grant' }));
        }
        const token = `access-${accessTokens.size + 1}`;
        accessTokens.set(token, OAUTH_USER);
        return res.end(JSON.stringify({ access_token: token, expires_in: 3600 }));
      }
      // Dovecot's introspection of the access token an XOAUTH2 login presents.
      const token = form.get('token') ?? '';
      introspected.push(token);
      const user = accessTokens.get(token);
      res.end(JSON.stringify(user ? { active: true, username: user } : { active: false }));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const address = provider.address();
  providerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  imap = await startDovecot({
    users: [
      { name: USER, password: PASSWORD },
      { name: SALES, password: PASSWORD },
      { name: OAUTH_USER, password: `no-password-login-${Math.random()}` },
    ],
    oauth2IntrospectionUrl: `${providerUrl}/introspect`,
  });
});
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
  await imap?.close();
  provider?.close();
});
afterEach(async () => {
  await Promise.all(running.map((r) => r.close()));
  running = [];
});

const mailboxConfig = () => ({
  smtp_host: '127.0.0.1',
  smtp_port: '2525',
  smtp_secure: 'false',
  from_address: USER,
  imap_host: '127.0.0.1',
  imap_port: String(imap.port),
  imap_secure: 'false',
});

/** The worker's IMAP readers, as worker.ts starts them, allowed to reach the test's servers on 127.0.0.1. */
function startReaders(pollMs: number, owner = 'worker-a'): EmailImapReaders {
  const local = outboundClient({ allowHosts: '127.0.0.1' });
  const tokens = new EmailAccessTokens(
    { google: { clientId: 'atende-client', clientSecret: 'atende-secret', tokenUrl: `${providerUrl}/token` } },
    local,
  );
  const readers = startEmailImap(
    { db: h.db, secretsKey, log, policy: outboundPolicy('127.0.0.1'), tokens, owner },
    { pollMs, retryMinMs: 100, retryMaxMs: 400, timeoutMs: 5000 },
  );
  running.push(readers);
  return readers;
}

const mail = (id: string, subject: string, text: string) =>
  [
    'From: "Ana Souza" <ana@cliente.test>',
    `To: ${USER}`,
    `Subject: ${subject}`,
    `Message-ID: <${id}@cliente.test>`,
    'Date: Tue, 01 Dec 2026 10:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    text,
    '',
  ].join('\r\n');

/** The channel-inbound jobs of a channel queued so far (removed once read). */
async function queuedFor(channelId: string): Promise<ChannelInboundJob[]> {
  const rows = await h.db.outboxJob.findMany({
    where: { tenantId: h.tenantId, queue: queues.channelInbound.name },
    orderBy: { createdAt: 'asc' },
  });
  const mine = rows.filter((r) => (r.payload as ChannelInboundJob).channel_uuid === channelId);
  await h.db.outboxJob.deleteMany({ where: { id: { in: mine.map((r) => r.id) } } });
  return mine.map((r) => r.payload as ChannelInboundJob);
}

async function waitForJobs(channelId: string, count: number, timeout = 10_000): Promise<ChannelInboundJob[]> {
  const jobs: ChannelInboundJob[] = [];
  await vi.waitFor(
    async () => {
      jobs.push(...(await queuedFor(channelId)));
      expect(jobs.length).toBeGreaterThanOrEqual(count);
    },
    { timeout, interval: 100 },
  );
  return jobs;
}

const raw = (job: ChannelInboundJob) => Buffer.from(job.raw_body, 'base64').toString('utf8');

describe('channel-inbound: e-mail read from the mailbox by IMAP', () => {
  let channelId = '';

  it('opens a conversation with the text and subject of mail delivered to the INBOX, and marks it read there', async () => {
    channelId = await h.createChannel({
      name: 'Suporte (IMAP)',
      type: 'email',
      config: mailboxConfig(),
      credentials: { password: PASSWORD, webhook_secret: 'mail-secret' },
    });
    startReaders(500);
    await imap.append(USER, 'INBOX', mail('first', 'Pedido 123 atrasado', 'Meu pedido não chegou.'));
    const [job] = await waitForJobs(channelId, 1);
    expect(job).toMatchObject({ tenant_uuid: h.tenantId, channel_uuid: channelId, content_type: 'message/rfc822; transfer=base64' });
    expect(await processInbound(h.deps, job!)).toMatchObject({ messages: 1 });
    const conversation = await h.db.conversation.findFirstOrThrow({ where: { channelId }, include: { messages: true } });
    expect(conversation.sectorId).toBe(h.sectorId);
    expect(conversation.messages).toHaveLength(1);
    expect(conversation.messages[0]).toMatchObject({
      author: 'CONTACT',
      content: 'Meu pedido não chegou.',
      externalId: '<first@cliente.test>',
    });
    expect(conversation.messages[0]!.interactiveContent).toMatchObject({ type: 'email', subject: 'Pedido 123 atrasado' });
    const identity = await h.db.contactIdentity.findFirstOrThrow({ where: { channelId } });
    expect(identity.identifier).toBe('ana@cliente.test');
    await vi.waitFor(async () => expect((await imap.messages(USER, 'INBOX'))[0]!.flags).toContain('\\Seen'), { timeout: 5000 });
  });

  it('takes no message twice after a reconnect (even one marked unread again), and hears new mail by IDLE without waiting for a poll', async () => {
    // The first reader was stopped after the last test (the worker restarting).
    // The mail client of a colleague marks the first message unread again while the worker is away.
    const [first] = await imap.messages(USER, 'INBOX');
    await imap.setFlags(USER, 'INBOX', first!.uid, []);
    // Another worker process takes over, polling only every minute: the new mail must come by IDLE.
    startReaders(60_000, 'worker-b');
    await vi.waitFor(
      () => expect(logged.some((l) => l.message === 'reading e-mail mailbox by IMAP' && l.details.idle === true)).toBe(true),
      {
        timeout: 5000,
      },
    );
    await imap.append(USER, 'INBOX', mail('second', 'Re: Pedido 123 atrasado', 'Alguma novidade?'));
    const jobs = await waitForJobs(channelId, 1, 8000);
    // A moment more, so a second copy of anything would have been queued by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    jobs.push(...(await queuedFor(channelId)));
    expect(jobs.map((j) => raw(j).match(/Message-ID: <(\w+)@/)?.[1])).toEqual(['second']);
    expect(await processInbound(h.deps, jobs[0]!)).toMatchObject({ messages: 1 });
    const messages = await h.db.message.findMany({ where: { conversation: { channelId } }, orderBy: { createdAt: 'asc' } });
    expect(messages.map((m) => m.content)).toEqual(['Meu pedido não chegou.', 'Alguma novidade?']);
    const state = await h.db.emailMailboxState.findUniqueOrThrow({ where: { channelId } });
    expect(state).toMatchObject({ lastUid: 2n, leaseOwner: 'worker-b', mailbox: `${USER}@127.0.0.1:${imap.port}/INBOX` });
  });

  it('reads one mailbox in one worker process at a time', async () => {
    const [c, d] = [startReaders(500, 'worker-c'), startReaders(500, 'worker-d')];
    await imap.append(USER, 'INBOX', mail('third', 'Outra pergunta', 'E o frete?'));
    const jobs = await waitForJobs(channelId, 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    jobs.push(...(await queuedFor(channelId)));
    expect(jobs.map((j) => raw(j).match(/Message-ID: <(\w+)@/)?.[1])).toEqual(['third']);
    const holder = (await h.db.emailMailboxState.findUniqueOrThrow({ where: { channelId } })).leaseOwner;
    expect(['worker-c', 'worker-d']).toContain(holder);
    // When the holder stops, the other takes the mailbox over.
    await (holder === 'worker-c' ? c : d).close();
    await imap.append(USER, 'INBOX', mail('fourth', 'Mais uma', 'Obrigada!'));
    const next = await waitForJobs(channelId, 1, 8000);
    expect(next.map((j) => raw(j).match(/Message-ID: <(\w+)@/)?.[1])).toEqual(['fourth']);
    expect((await h.db.emailMailboxState.findUniqueOrThrow({ where: { channelId } })).leaseOwner).toBe(
      holder === 'worker-c' ? 'worker-d' : 'worker-c',
    );
  });

  it('takes, at its first read, only the unread mail that came since the channel was created', async () => {
    await imap.append(SALES, 'INBOX', mail('old', 'Antiga', 'De 2020'), { date: new Date('2020-01-02T03:04:05Z') });
    await imap.append(SALES, 'INBOX', mail('read', 'Lida', 'Já lida'), { flags: ['\\Seen'] });
    await imap.append(SALES, 'INBOX', mail('waiting', 'Esperando', 'Ninguém leu ainda'));
    const sales = await h.createChannel({
      name: 'Vendas (IMAP)',
      type: 'email',
      config: { ...mailboxConfig(), from_address: SALES },
      credentials: { password: PASSWORD, webhook_secret: 'sales-secret' },
    });
    startReaders(500);
    const jobs = await waitForJobs(sales, 1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    jobs.push(...(await queuedFor(sales)));
    expect(jobs.map((j) => raw(j).match(/Message-ID: <(\w+)@/)?.[1])).toEqual(['waiting']);
    // Reading goes on after the highest UID the mailbox had: the old mail is not taken later either.
    expect(await h.db.emailMailboxState.findUniqueOrThrow({ where: { channelId: sales } })).toMatchObject({ lastUid: 3n });
    const seen = (await imap.messages(SALES, 'INBOX')).map((m) => m.flags.includes('\\Seen'));
    expect(seen).toEqual([false, true, true]);
  });

  it('logs in by OAuth 2.0 (XOAUTH2) with an access token exchanged for the channel’s refresh token', async () => {
    const oauth = await h.createChannel({
      name: 'Google Workspace',
      type: 'email',
      config: { ...mailboxConfig(), from_address: OAUTH_USER, oauth_provider: 'google' },
      credentials: { refresh_token: 'oauth-refresh', webhook_secret: 'oauth-secret' },
    });
    startReaders(500);
    await imap.append(OAUTH_USER, 'INBOX', mail('oauth', 'Pelo Google', 'Oi'));
    const [job] = await waitForJobs(oauth, 1);
    expect(raw(job!)).toContain('Message-ID: <oauth@cliente.test>');
    // Dovecot checked the access token the provider gave for the refresh token; no password was used.
    expect(introspected.length).toBeGreaterThan(0);
    expect(accessTokens.get(introspected[0]!)).toBe(OAUTH_USER);
  });

  it(
    'logs a refused login and retries with a growing delay without stopping; fixed credentials are picked up at the next poll',
    { timeout: 60_000 },
    async () => {
      logged.length = 0;
      const wrong = await h.createChannel({
        name: 'Senha errada',
        type: 'email',
        config: mailboxConfig(),
        credentials: { password: 'not-the-password', webhook_secret: 'other-secret' },
      });
      const readers = startReaders(300);
      const refusals = () => logged.filter((l) => l.level === 'warn' && l.details.channelId === wrong);
      // Dovecot itself answers a repeated wrong login from one address only after a few seconds.
      await vi.waitFor(() => expect(refusals().length).toBeGreaterThanOrEqual(2), { timeout: 15_000, interval: 50 });
      const [one, two] = refusals();
      expect(one!.message).toBe('e-mail mailbox not read by IMAP; retrying');
      expect(String(one!.details.reason)).toMatch(/IMAP login refused/);
      expect(JSON.stringify(refusals())).not.toContain('not-the-password');
      expect([one, two].map((l) => l!.details.retryInMs)).toEqual([100, 200]);
      expect(readers.channels()).toContain(wrong);
      // The admin types the right password: the changed channel is read within a poll (dovecot's
      // penalty for the failures before still delays that login by a few seconds).
      await h.db.channel.update({
        where: { id: wrong },
        data: { credentialsEncrypted: encryptCredentials({ password: PASSWORD, webhook_secret: 'other-secret' }, secretsKey) },
      });
      await vi.waitFor(
        () => expect(logged.some((l) => l.message === 'reading e-mail mailbox by IMAP' && l.details.channelId === wrong)).toBe(true),
        { timeout: 25_000, interval: 100 },
      );
      // A channel disabled is let go within a poll too.
      await h.db.channel.update({ where: { id: wrong }, data: { enabled: false } });
      await vi.waitFor(() => expect(readers.channels()).not.toContain(wrong), { timeout: 5000 });
      // ...and its mailbox given up, so another worker could take it at once.
      await vi.waitFor(
        async () =>
          expect(await h.db.emailMailboxState.findUniqueOrThrow({ where: { channelId: wrong } })).toMatchObject({ leaseOwner: null }),
        { timeout: 5000 },
      );
    },
  );
});
