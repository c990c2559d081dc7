import { createServer, type Server } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelDeliveryError, type OutboundMessage } from '../adapter';
import { outboundClient } from '../outbound';
import { EmailAdapter } from './adapter';
import { EmailSettingsSchema } from './settings';
import { EmailAccessTokens, emailOAuthClients } from './oauth';

/**
 * OAuth 2.0 mailboxes: the refresh token exchanged at the provider's token endpoint (a
 * local server standing in for Google's), the access token kept until it nearly expires, refusals
 * said plainly, and SMTP logging in with it as XOAUTH2 (a local smtp-server checking the token).
 */
const local = outboundClient({ allowHosts: '127.0.0.1' });
let tokenServer: Server;
let tokenUrl = '';
const exchanges: URLSearchParams[] = [];
let smtp: SMTPServer;
let smtpPort = 0;
const smtpLogins: { method: string; user: string; accessToken: string | undefined }[] = [];

beforeAll(async () => {
  tokenServer = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      exchanges.push(form);
      res.setHeader('content-type', 'application/json');
      if (form.get('refresh_token') === 'revoked') {
        res.statusCode = 400;
        return res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }));
      }
      res.end(JSON.stringify({ access_token: `access-${exchanges.length}`, expires_in: 3599, token_type: 'Bearer' }));
    });
  });
  await new Promise<void>((resolve) => tokenServer.listen(0, '127.0.0.1', resolve));
  const address = tokenServer.address();
  tokenUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/token`;
  smtp = new SMTPServer({
    authMethods: ['XOAUTH2', 'PLAIN'],
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      smtpLogins.push({ method: auth.method, user: auth.username ?? '', accessToken: auth.accessToken });
      if (auth.method !== 'XOAUTH2' || !auth.accessToken?.startsWith('access-')) return callback(new Error('Invalid login'));
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const smtpAddress = smtp.server.address();
  smtpPort = typeof smtpAddress === 'object' && smtpAddress ? smtpAddress.port : 0;
});
afterAll(async () => {
  tokenServer?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
});

describe('e-mail OAuth 2.0', () => {
  it('exchanges the refresh token with the install’s client, once while the access token lasts', async () => {
    let now = 1_000_000;
    const tokens = new EmailAccessTokens({ google: { clientId: 'client-1', clientSecret: 'shh', tokenUrl } }, local, () => now);
    exchanges.length = 0;
    const [a, b] = await Promise.all([tokens.get('google', 'refresh-1'), tokens.get('google', 'refresh-1')]);
    expect(a).toBe('access-1');
    expect(b).toBe('access-1');
    expect(exchanges.map((f) => Object.fromEntries(f))).toEqual([
      { grant_type: 'refresh_token', refresh_token: 'refresh-1', client_id: 'client-1', client_secret: 'shh' },
    ]);
    now += 3000 * 1000;
    expect(await tokens.get('google', 'refresh-1')).toBe('access-1');
    // Renewed a little before the provider's hour is up.
    now += 500 * 1000;
    expect(await tokens.get('google', 'refresh-1')).toBe('access-2');
  });

  it('says plainly when the refresh token was revoked or the provider is not configured here', async () => {
    const tokens = new EmailAccessTokens({ google: { clientId: 'client-1', clientSecret: 'shh', tokenUrl } }, local);
    await expect(tokens.get('google', 'revoked')).rejects.toMatchObject({
      kind: 'permanent',
      message: 'The google token endpoint refused the refresh token (invalid_grant)',
    });
    const error = await tokens.get('microsoft', 'refresh-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChannelDeliveryError);
    expect((error as Error).message).toContain('EMAIL_OAUTH_MICROSOFT_CLIENT_ID');
  });

  it('takes its clients from the settings, Microsoft with the tenant’s token endpoint', () => {
    expect(
      emailOAuthClients({
        EMAIL_OAUTH_GOOGLE_CLIENT_ID: 'g',
        EMAIL_OAUTH_MICROSOFT_CLIENT_ID: 'm',
        EMAIL_OAUTH_MICROSOFT_CLIENT_SECRET: 'ms',
        EMAIL_OAUTH_MICROSOFT_TENANT: 'contoso.onmicrosoft.com',
      }),
    ).toEqual({
      microsoft: {
        clientId: 'm',
        clientSecret: 'ms',
        tokenUrl: 'https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token',
      },
    });
  });

  it('sends a reply through SMTP logged in with the access token (XOAUTH2)', async () => {
    smtpLogins.length = 0;
    const adapter = new EmailAdapter({ outbound: local, oauth: { google: { clientId: 'client-1', clientSecret: 'shh', tokenUrl } } });
    const message: OutboundMessage = {
      uuid: '0b4c4b0e-1f0e-4c47-9a55-7d3f7e0c2a11',
      conversationUuid: 'c0000000-0000-4000-8000-000000000001',
      content: 'Olá!',
      annex: null,
      author: 'USER',
      createdAt: new Date(),
      contact: { uuid: 'c0000000-0000-4000-8000-000000000002', phoneNumber: null, identifier: 'ana@cliente.test' },
      thread: null,
    };
    const channel = {
      uuid: 'ch',
      type: 'email',
      config: {
        smtp_host: '127.0.0.1',
        smtp_port: String(smtpPort),
        smtp_secure: 'false',
        from_address: 'suporte@loja.test',
        oauth_provider: 'google',
      },
      credentials: { refresh_token: 'refresh-2' },
    };
    await expect(adapter.send(message, channel)).resolves.toEqual({ externalId: '<0b4c4b0e-1f0e-4c47-9a55-7d3f7e0c2a11@loja.test>' });
    expect(smtpLogins).toEqual([{ method: 'XOAUTH2', user: 'suporte@loja.test', accessToken: expect.stringMatching(/^access-/) }]);
    // Without a refresh token the send fails at once, naming what is missing.
    await expect(adapter.send(message, { ...channel, credentials: {} })).rejects.toMatchObject({
      kind: 'permanent',
      message: expect.stringContaining('no refresh_token'),
    });
  });

  it('checks the IMAP settings by field code', () => {
    const base = { smtp_host: 'smtp.loja.test', from_address: 'suporte@loja.test' };
    const issue = (settings: Record<string, string>) => EmailSettingsSchema.safeParse({ ...base, ...settings }).error?.issues[0];
    expect(issue({ imap_host: 'imap.loja.test', imap_port: '993', imap_secure: 'true', oauth_provider: 'microsoft' })).toBeUndefined();
    expect(issue({ imap_host: 'imap loja' })).toMatchObject({
      path: ['imap_host'],
      message: 'imap_host must be a host name or an IP address',
    });
    expect(issue({ oauth_provider: 'yahoo' })).toMatchObject({
      path: ['oauth_provider'],
      message: 'oauth_provider is google or microsoft',
    });
    expect(issue({ sent_mailbox: 'Sent\u0007' })).toMatchObject({ path: ['sent_mailbox'] });
    expect(issue({ imap_host: '', sent_mailbox: '' })).toBeUndefined();
  });
});
