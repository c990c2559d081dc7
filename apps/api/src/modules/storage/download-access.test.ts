import { randomUUID } from 'node:crypto';
import { signedFilePath } from '@atende/channels';
import type { Response, Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';
import { customChannel, inbound } from '../conversations/fixtures';

// A user downloads a file of their tenant only when it belongs to something they can
// read: a conversation they may read (the messages route's rule), a campaign they manage, a template,
// a canned response, or their own upload. Any other file answers 404, as the messages route answers
// for a conversation the caller may not read. Signed links (webhook receivers, providers) still work.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const FILE_LINK_SECRET = 'download-access-test-secret-0123456789';
const WHO = ['agent', 'agent2', 'supervisor', 'manager', 'admin', 'owner', 'campaigns', 'campaigns2', 'tenants'] as const;
type Who = (typeof WHO)[number];

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Partial<Record<Who | 'outsider', string>> = {};
const auth = (who: Who | 'outsider') => ({ Authorization: `Bearer ${tokens[who]}` });
const binary = (req: Test) =>
  req.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });

async function upload(who: Who, bytes = PNG, filename = 'foto.png', contentType = 'image/png'): Promise<string> {
  const res = await t.http.post('/api/v1/storage/files').set(auth(who)).attach('file', bytes, { filename, contentType });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.data.uuid as string;
}

/** Who of WHO may download `id` (200), and that everybody else gets the same 404 with an error_message. */
async function downloaders(id: string): Promise<Who[]> {
  const allowed: Who[] = [];
  for (const who of WHO) {
    const res: Response = await binary(t.http.get(`/api/v1/storage/files/${id}`).set(auth(who)));
    if (res.status === 200) {
      allowed.push(who);
      continue;
    }
    expect(res.status, who).toBe(404);
    expect(JSON.parse((res.body as Buffer).toString()), who).toMatchObject({ code: 'file_not_found', error_message: 'File not found' });
  }
  return allowed;
}

beforeAll(async () => {
  t = await startTestApp({ FILE_LINK_SECRET });
  acme = await t.tenant('Acme', {
    users: {
      agent: ['agent'],
      agent2: ['agent'],
      supervisor: ['supervisor'],
      manager: ['manager'],
      admin: ['admin'],
      owner: ['owner'],
      campaigns: ['campaign_manager'],
      campaigns2: ['campaign_manager'],
      tenants: ['tenant_admin'],
    },
  });
  await t.tenant('Other', { users: { admin: ['admin'] } });
  for (const who of WHO) tokens[who] = await t.login(`${who}@acme.test`);
  tokens.outsider = await t.login('admin@other.test');
});
afterAll(() => t.close());

describe('downloading a conversation attachment', () => {
  let attachment: string;
  let contactMedia: string;

  beforeAll(async () => {
    const { channel, token } = await customChannel(t.database.db, acme.tenantId, acme.workspaceId, acme.sectors[0]!.id);
    expect((await inbound(t, channel.id, token, { phone: '11955550001', id: 'm-1', content: 'Oi' })).status).toBeLessThan(300);
    const conversation = await t.database.db.conversation.findFirstOrThrow({ where: { tenantId: acme.tenantId } });
    await t.database.db.conversation.update({
      where: { id: conversation.id },
      data: { userId: acme.users.agent!.id, state: 'answered', timeAnswer: new Date() },
    });
    // Agent A sends a file in their conversation.
    attachment = await upload('agent');
    const sent = await t.http
      .post(`/api/v1/conversations/${conversation.id}/messages`)
      .set(auth('agent'))
      .send({ content: 'Segue', annex_uuid: attachment });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    // A contact's media: kept by the inbound worker, with no uploader.
    contactMedia = await upload('agent');
    await t.database.db.storedFile.update({ where: { id: contactMedia }, data: { uploadedById: null } });
    await t.database.db.message.create({
      data: {
        id: randomUUID(),
        tenantId: acme.tenantId,
        conversationId: conversation.id,
        author: 'CONTACT',
        contactId: conversation.contactId,
        content: '',
        annexId: contactMedia,
      },
    });
  });

  it("refuses agent B the attachment of agent A's conversation, like the messages route (404)", async () => {
    const conversation = await t.database.db.conversation.findFirstOrThrow({ where: { tenantId: acme.tenantId } });
    expect((await t.http.get(`/api/v1/conversations/${conversation.id}/messages`).set(auth('agent2'))).status).toBe(404);
    expect(await downloaders(contactMedia)).toEqual(['agent', 'supervisor', 'manager', 'admin', 'owner']);
  });

  it('lets the uploader, the owner and a supervisor download it; nobody of another tenant', async () => {
    expect(await downloaders(attachment)).toEqual(['agent', 'supervisor', 'manager', 'admin', 'owner']);
    expect((await t.http.get(`/api/v1/storage/files/${attachment}`).set(auth('outsider'))).status).toBe(404);
  });

  it('keeps the signed link of a webhook receiver working without a session', async () => {
    const res = await binary(t.http.get(signedFilePath(FILE_LINK_SECRET, contactMedia, Math.floor(Date.now() / 1000) + 600)));
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
  });
});

describe('downloading other files', () => {
  it('gives an upload nothing refers to only to its uploader', async () => {
    const mine = await upload('agent2');
    expect(await downloaders(mine)).toEqual(['agent2']);
  });

  it("gives a campaign's subscriber file to the managers of that campaign only (and admins)", async () => {
    const db = t.database.db;
    const channel = (
      await db.channel.create({
        data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'WhatsApp', type: 'whatsapp_360dialog' },
      })
    ).id;
    const template = (
      await db.outboundTemplate.create({
        data: {
          tenantId: acme.tenantId,
          channelId: channel,
          name: 'oferta',
          language: 'pt_BR',
          category: 'MARKETING',
          status: 'APPROVED',
          components: [{ type: 'BODY', text: 'Olá {{1}}' }],
        },
      })
    ).id;
    const created = await t.http
      .post('/api/v1/campaign')
      .set(auth('campaigns'))
      .send({
        name: 'Black Friday',
        channel_uuid: channel,
        whatsapp_template_uuid: template,
        dnd_list: [],
        inbound_entrypoint: acme.sectors[0]!.id,
        config: { default_action: { action: 'end_with_message', message: 'Obrigado!' }, reply_actions: {} },
      });
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const campaign = created.body.data.uuid as string;
    const csv = Buffer.from('name,phone,1\nMaria,11912340001,Maria\n');
    const imported = await t.http
      .post(`/api/v1/campaign/${campaign}/subscribers`)
      .set(auth('campaigns'))
      .attach('file', csv, { filename: 'lista.csv', contentType: 'text/csv' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(202);
    const file = await db.storedFile.findFirstOrThrow({ where: { campaignId: campaign } });
    // Public campaign: every campaign manager manages it; manager is out (the role matrix's stricter reading).
    expect(await downloaders(file.id)).toEqual(['admin', 'owner', 'campaigns', 'campaigns2']);
    // Private: its creator (the uploader) and admins.
    await db.campaign.update({ where: { id: campaign }, data: { isPublic: false } });
    expect(await downloaders(file.id)).toEqual(['admin', 'owner', 'campaigns']);
  });

  it('gives template media to everybody who reads templates, and a canned response annex to its users', async () => {
    const db = t.database.db;
    const media = await upload('campaigns');
    const channel = (
      await db.channel.create({
        data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'WhatsApp 2', type: 'whatsapp_360dialog' },
      })
    ).id;
    await db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: channel,
        name: 'com_imagem',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [`/api/v1/storage/files/${media}`] } },
          { type: 'BODY', text: 'Olá' },
        ],
      },
    });
    // Every user of the tenant; the tenant_admin operator lives in the platform tenant, not here.
    const tenantUsers = WHO.filter((who) => who !== 'tenants');
    expect(await downloaders(media)).toEqual(tenantUsers);
    const annex = await upload('supervisor');
    await db.cannedResponse.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, keyword: 'catalogo', message: 'Nosso catálogo', annexId: annex },
    });
    expect(await downloaders(annex)).toEqual(tenantUsers);
    // Deleted, the template no longer lends its media to anybody but the uploader.
    await db.outboundTemplate.updateMany({ where: { name: 'com_imagem' }, data: { deletedAt: new Date() } });
    expect(await downloaders(media)).toEqual(['campaigns']);
  });
});
