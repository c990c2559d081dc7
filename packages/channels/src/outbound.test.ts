import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, outboundClient, statusLine } from './outbound';
import { addressAllowed, isOutboundRefused, outboundPolicy, refusedAddressReason } from './outbound-address';

const refusedForms = [
  '127.0.0.1',
  '::1',
  '0.0.0.0',
  '::',
  '10.1.2.3',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  'fe80::1',
  '100.64.0.1',
  '224.0.0.1',
  'ff02::1',
  '255.255.255.255',
  '240.0.0.1',
  'fc00::1',
  'fd12::1',
  '::ffff:127.0.0.1',
  '::ffff:169.254.169.254',
  '::7f00:1',
  '::a9fe:a9fe',
  '2002:7f00:1::',
  '2002:c0a8:101::',
  '64:ff9b::7f00:1',
  '64:ff9b::a00:1',
  '[::1]',
];

describe('outbound address classifier', () => {
  it.each(refusedForms)('refuses %s', (address) => {
    expect(refusedAddressReason(address)).not.toBeNull();
    expect(addressAllowed(address, address, outboundPolicy(''))).toBe(false);
  });

  it.each(['8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::'])('allows public %s', (address) => {
    expect(refusedAddressReason(address)).toBeNull();
  });

  it('lets the allowlist name hosts, IPs and CIDRs, also through their IPv6 forms', () => {
    const policy = outboundPolicy(' localhost , 10.0.0.0/8,::1 ');
    expect(addressAllowed('127.0.0.1', 'localhost', policy)).toBe(true);
    expect(addressAllowed('127.0.0.1', '127.0.0.1', policy)).toBe(false);
    expect(addressAllowed('10.9.8.7', '10.9.8.7', policy)).toBe(true);
    expect(addressAllowed('::ffff:10.9.8.7', 'x', policy)).toBe(true);
    expect(addressAllowed('::1', '::1', policy)).toBe(true);
    expect(addressAllowed('169.254.169.254', 'metadata', policy)).toBe(false);
  });

  it('normalises numeric host forms through the URL parser', async () => {
    expect(new URL('http://2130706433/').hostname).toBe('127.0.0.1');
    expect(new URL('http://0x7f000001/').hostname).toBe('127.0.0.1');
    for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://127.1/']) {
      await expect(checkOutboundUrl(url, outboundPolicy(''))).rejects.toSatisfy(isOutboundRefused);
    }
  });

  it('refuses at save time other schemes, credentials and names resolving to refused addresses', async () => {
    const policy = outboundPolicy('');
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'http://user:pw@example.com/', 'http://localhost:80/', 'not a url']) {
      await expect(checkOutboundUrl(url, policy)).rejects.toSatisfy(isOutboundRefused);
    }
    await expect(checkOutboundUrl('http://localhost:80/', outboundPolicy('localhost'))).resolves.toBeUndefined();
    await expect(checkOutboundUrl('https://8.8.8.8/', policy)).resolves.toBeUndefined();
  });

  it('writes status lines without remote text', () => {
    expect(statusLine(502)).toBe('HTTP 502 Bad Gateway');
    expect(statusLine(299)).toBe('HTTP 299');
  });
});

describe('outbound client', () => {
  let server: Server;
  let port = 0;
  let hits: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url?.startsWith('/redirect')) {
        res.writeHead(302, { location: decodeURIComponent(req.url.slice('/redirect?to='.length)) }).end();
      } else if (req.url === '/big') {
        res.end(Buffer.alloc(5000, 'x'));
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 2000);
      } else {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null })),
        );
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const strict = outboundClient();
  const local = outboundClient({ allowHosts: '127.0.0.1,localhost', maxBytes: 1000, maxTimeMs: 500 });

  it.each([
    '127.0.0.1',
    '[::1]',
    '0.0.0.0',
    '2130706433',
    '0x7f000001',
    '169.254.169.254',
    '[::ffff:127.0.0.1]',
    '[::7f00:1]',
    'localhost',
  ])('refuses http://%s before connecting', async (host) => {
    hits = [];
    const error = await strict.fetch(`http://${host}:${port}/`).catch((e: unknown) => e);
    expect(isOutboundRefused(error) || isOutboundRefused((error as { cause?: unknown }).cause)).toBe(true);
    expect(hits).toEqual([]);
  });

  it('delivers to an allowlisted local server, posting the body', async () => {
    const res = await local.fetch(`http://localhost:${port}/echo`, { method: 'POST', body: 'hi', headers: { authorization: 'Bearer t' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: 'POST', body: 'hi', auth: 'Bearer t' });
  });

  it('follows a redirect through the same check and refuses one to a refused address', async () => {
    const ok = await local.fetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`http://localhost:${port}/echo`)}`);
    expect(await ok.json()).toMatchObject({ method: 'GET' });
    const error = await local
      .fetch(`http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(`http://169.254.169.254/latest/meta-data/`)}`)
      .catch((e: unknown) => e);
    expect(isOutboundRefused(error)).toBe(true);
    const manual = await local.fetch(`http://127.0.0.1:${port}/redirect?to=x`, { redirect: 'manual' });
    expect(manual.status).toBe(302);
  });

  it('caps the answer size and the total time', async () => {
    const big = await local.fetch(`http://127.0.0.1:${port}/big`);
    await expect(big.arrayBuffer()).rejects.toThrow();
    const slow = await local.fetch(`http://127.0.0.1:${port}/slow`).catch((e: unknown) => e as Error);
    expect((slow as Error).name).toBe('TimeoutError');
  });
});
