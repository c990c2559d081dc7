import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from '../conversations/fixtures';
import { CHANNEL_ROW_TTL_MS } from './service';

// The custom channel's inbound call remembers an authenticated channel's row for a second
// item 3): what that may and may not change.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let admin: string;

beforeAll(async () => {
  t = await startTestApp({ LOGIN_MAX_ATTEMPTS_PER_IP: '1000' });
  acme = await t.tenant('Inbound Rows', { users: { admin: ['admin'], agent: ['agent'] } });
  admin = await t.login('admin@inboundrows.test');
});
afterAll(() => t.close());

// Letting the remembered row's time to live pass is the scenario: nothing else tells this process of the change.
const afterTtl = () => new Promise((r) => setTimeout(r, CHANNEL_ROW_TTL_MS + 100));

describe('custom channel inbound: the remembered channel row', () => {
  it('a channel disabled or deleted through the api refuses the very next message, and stores nothing', async () => {
    const { channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id);
    expect((await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-1' })).status).toBe(202);
    const off = await t.http.patch(`/api/v1/channels/${channel.id}`).set('Authorization', `Bearer ${admin}`).send({ enabled: false });
    expect(off.status).toBe(200);
    const refused = await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-2' });
    expect(refused.status).toBe(403);
    expect(refused.body.error_message).toBe('This channel is disabled');
    expect(await t.database.db.message.count({ where: { externalId: 'row-2' } })).toBe(0);

    const on = await t.http.patch(`/api/v1/channels/${channel.id}`).set('Authorization', `Bearer ${admin}`).send({ enabled: true });
    expect(on.status).toBe(200);
    expect((await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-3' })).status).toBe(202);
    expect((await t.http.delete(`/api/v1/channels/${channel.id}`).set('Authorization', `Bearer ${admin}`)).status).toBeLessThan(300);
    expect((await inbound(t, channel.id, token, { phone: '11977770001', id: 'row-4' })).status).toBe(401);
    expect(await t.database.db.message.count({ where: { externalId: 'row-4' } })).toBe(0);
  });

  it('a wrong token is refused even while the channel is remembered', async () => {
    const { channel, token } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'another-token-0123456789',
    );
    expect((await inbound(t, channel.id, token, { phone: '11977770002', id: 'tok-1' })).status).toBe(202);
    const wrong = await inbound(t, channel.id, 'not-the-token', { phone: '11977770002', id: 'tok-2' });
    expect(wrong.status).toBe(401);
    expect(
      (
        await t.http
          .post(`/api/v1/channels/droz/${channel.id}/messages`)
          .send({ contact: { phone: '11977770002' }, message: { id: 'tok-3', content: 'x' } })
      ).status,
    ).toBe(401);
    expect(await t.database.db.message.count({ where: { externalId: { in: ['tok-2', 'tok-3'] } } })).toBe(0);
  });

  it("a change made elsewhere (another api process) applies within the row's second", async () => {
    const { channel, token } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'elsewhere-token-0123456789',
    );
    expect((await inbound(t, channel.id, token, { phone: '11977770003', id: 'far-1' })).status).toBe(202);
    // Written straight to the database: this process was not told.
    await t.database.db.channel.update({ where: { id: channel.id }, data: { enabled: false } });
    await afterTtl();
    const refused = await inbound(t, channel.id, token, { phone: '11977770003', id: 'far-2' });
    expect(refused.status).toBe(403);
    expect(await t.database.db.message.count({ where: { externalId: 'far-2' } })).toBe(0);
  });

  it('a new conversation opens by the stored channel, not the remembered row (its entry sector changed meanwhile)', async () => {
    const [first, second] = acme.sectors;
    if (!first || !second) throw new Error('the test tenant needs two sectors');
    const { channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, first.id, 'entry-token-0123456789');
    const opened = await inbound(t, channel.id, token, { phone: '11977770004', id: 'entry-1' });
    expect(opened.status).toBe(202);
    await t.database.db.channel.update({ where: { id: channel.id }, data: { entrySectorId: second.id } });
    // Within the second: a contact without an open conversation.
    const fresh = await inbound(t, channel.id, token, { phone: '11977770005', id: 'entry-2' });
    expect(fresh.status).toBe(202);
    const conv = await t.database.db.conversation.findUniqueOrThrow({ where: { id: fresh.body.data.conversation_uuid } });
    expect(conv.sectorId).toBe(second.id);
    // And the known contact's next message still joins their open conversation.
    const again = await inbound(t, channel.id, token, { phone: '11977770004', id: 'entry-3' });
    expect(again.body.data.conversation_uuid).toBe(opened.body.data.conversation_uuid);
  });

  it('a user session token is no channel token', async () => {
    const { channel } = await customChannel(
      t.database.db,
      acme.tenantId,
      acme.workspaceId,
      acme.sectors[0]!.id,
      'session-test-token-0123456789',
    );
    const res = await inbound(t, channel.id, admin, { phone: '11977770006', id: 'sess-1' });
    expect(res.status).toBe(401);
    expect(res.body.error_message).toBe('Invalid channel or token');
  });
});
