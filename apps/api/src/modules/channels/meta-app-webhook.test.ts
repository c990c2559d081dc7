import { createHmac, randomUUID } from 'node:crypto';
import { providerIdentity } from '@atende/channels';
import { queues, type ChannelInboundJob } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

/**
 * The Meta app's own webhook: pages connected through the setup screens all report
 * to the one callback address of this server's Meta app; each entry reaches its page's channel.
 */
const APP_SECRET = 'platform-app-secret';
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let globex: Awaited<ReturnType<TestApp['tenant']>>;

beforeAll(async () => {
  t = await startTestApp({ META_APP_ID: '1234567890', META_APP_SECRET: APP_SECRET, META_VERIFY_TOKEN: 'platform-verify' });
  acme = await t.tenant('Acme', { users: { admin: ['admin'] } });
  globex = await t.tenant('Globex', { users: { admin: ['admin'] } });
});
afterAll(() => t.close());

const sign = (body: string, secret = APP_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const post = (kind: string, body: string, signature = sign(body)) =>
  t.http
    .post(`/api/v1/channels/meta/${kind}/webhook`)
    .set('Content-Type', 'application/json')
    .set('X-Hub-Signature-256', signature)
    .send(body);
/** A channel stored as the channels api stores one: with its provider identity. */
async function channel(owner: typeof acme, name: string, type: 'messenger' | 'instagram', config: Record<string, string>) {
  const id = randomUUID();
  const identity = providerIdentity({ id, type, config, credentials: null })!.identity;
  return t.database.db.channel.create({
    data: { id, tenantId: owner.tenantId, workspaceId: owner.workspaceId, name, type, config, providerIdentity: identity },
  });
}
const entry = (page: string, text: string) => ({
  id: page,
  time: Date.now(),
  messaging: [{ sender: { id: `psid-${text}` }, recipient: { id: page }, timestamp: Date.now(), message: { mid: `m-${text}`, text } }],
});

describe('the Meta app webhook', () => {
  it('answers the handshake with the app verify token only', async () => {
    const ok = await t.http
      .get('/api/v1/channels/meta/messenger/webhook')
      .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'platform-verify', 'hub.challenge': '4242' });
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('4242');
    expect(
      (
        await t.http
          .get('/api/v1/channels/meta/messenger/webhook')
          .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'nope', 'hub.challenge': '1' })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.http
          .get('/api/v1/channels/meta/whatsapp/webhook')
          .query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'platform-verify', 'hub.challenge': '1' })
      ).status,
    ).toBe(403);
  });

  it("hands each page's entries to that page's channel, in its tenant, and drops unknown pages", async () => {
    const db = t.database.db;
    const mine = await channel(acme, 'FB Acme', 'messenger', { page_id: '111' });
    const theirs = await channel(globex, 'FB Globex', 'messenger', { page_id: '222' });
    const insta = await channel(acme, 'IG Acme', 'instagram', { page_id: '111' });
    const body = JSON.stringify({
      object: 'page',
      entry: [entry('111', 'oi'), entry('222', 'hello'), entry('999', 'nobody'), entry('111', 'de novo')],
    });
    const res = await post('messenger', body);
    expect(res.status).toBe(200);
    const jobs = await db.outboxJob.findMany({
      where: { queue: queues.channelInbound.name, tenantId: { in: [acme.tenantId, globex.tenantId] } },
    });
    const byChannel = new Map(jobs.map((j) => [(j.payload as ChannelInboundJob).channel_uuid, j]));
    expect([...byChannel.keys()].sort()).toEqual([mine.id, theirs.id].sort());
    const acmeJob = byChannel.get(mine.id)!;
    expect(acmeJob.tenantId).toBe(acme.tenantId);
    const acmeBody = JSON.parse((acmeJob.payload as ChannelInboundJob).raw_body) as {
      object: string;
      entry: { id: string; messaging: { message: { text: string } }[] }[];
    };
    expect(acmeBody.object).toBe('page');
    expect(acmeBody.entry.map((e) => e.messaging[0]!.message.text)).toEqual(['oi', 'de novo']);
    expect(JSON.parse((byChannel.get(theirs.id)!.payload as ChannelInboundJob).raw_body).entry.map((e: { id: string }) => e.id)).toEqual([
      '222',
    ]);
    // The Instagram channel of the same page id gets nothing from the Messenger callback.
    expect(byChannel.has(insta.id)).toBe(false);
  });

  it("hands an Instagram entry to the channel of its professional account (Meta's app webhooks name the account, not the page)", async () => {
    const db = t.database.db;
    const insta = await channel(acme, 'IG', 'instagram', { page_id: '333', instagram_account_id: '17841400000000333' });
    const res = await post(
      'instagram',
      JSON.stringify({ object: 'instagram', entry: [entry('17841400000000333', 'oi do insta'), entry('444', 'ninguém')] }),
    );
    expect(res.status).toBe(200);
    const jobs = await db.outboxJob.findMany({ where: { queue: queues.channelInbound.name, tenantId: acme.tenantId } });
    const mine = jobs.filter((j) => (j.payload as ChannelInboundJob).channel_uuid === insta.id);
    expect(mine).toHaveLength(1);
    expect(JSON.parse((mine[0]!.payload as ChannelInboundJob).raw_body).entry.map((e: { id: string }) => e.id)).toEqual([
      '17841400000000333',
    ]);
  });

  it('refuses a wrong or missing signature, and a body that is not JSON, queueing nothing', async () => {
    const before = await t.database.db.outboxJob.count();
    const body = JSON.stringify({ object: 'page', entry: [entry('111', 'forged')] });
    expect((await post('messenger', body, sign(body, 'another-secret'))).status).toBe(401);
    expect((await t.http.post('/api/v1/channels/meta/messenger/webhook').set('Content-Type', 'application/json').send(body)).status).toBe(
      401,
    );
    const notJson = 'not json';
    expect((await post('messenger', notJson)).status).toBe(400);
    expect(await t.database.db.outboxJob.count()).toBe(before);
  });
});
