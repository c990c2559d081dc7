import { queues, rooms } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connected, emitWithAck, nextEvent, startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
let dialog: string;
let custom: string;
let web: string;
let cloud: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { agent: ['agent'], admin: ['admin'], campaigns: ['campaign_manager'] } });
  await t.tenant('Other', { users: { campaigns: ['campaign_manager'] } });
  for (const name of ['agent', 'admin', 'campaigns']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('campaigns@other.test');
  const db = t.database.db;
  const channel = (name: string, type: string) =>
    db.channel.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name, type } }).then((c) => c.id);
  dialog = await channel('WhatsApp', 'whatsapp_360dialog');
  custom = await channel('API', 'custom');
  web = await channel('Web', 'whatsapp_web');
  cloud = await channel('Cloud', 'whatsapp_cloud');
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

const welcome = {
  name: 'welcome_offer',
  category: 'MARKETING',
  language: 'pt_BR',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}', example: { header_text: ['Maria'] } },
    { type: 'BODY', text: 'Seu pedido {{1}} chega {{2}}.', example: { body_text: [['123', 'amanhã']] } },
    { type: 'FOOTER', text: 'Equipe Acme' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Sim' },
        { type: 'QUICK_REPLY', text: 'Não' },
      ],
    },
  ],
};
const standard = (name: string) => ({
  name,
  category: 'UTILITY',
  language: 'pt_BR',
  components: [{ type: 'BODY', text: 'Olá {{1}}!', example: { body_text: [['Ana']] } }],
});

describe('templates api', () => {
  it('creates a template on a 360dialog channel as PENDING, queues its submission and tells open lists', async () => {
    const socket = await connected(t.socket(tokens.campaigns));
    expect(await emitWithAck(socket, 'join', { room: rooms.campaigns(acme.tenantId) })).toEqual({ ok: true });
    const announced = nextEvent(socket, 'update-template', (p) => p.template.name === 'welcome_offer');
    const created = await t.http.post(`/api/v1/channels/${dialog}/outbound_templates`).set(auth('campaigns')).send(welcome);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'welcome_offer',
      channel: { uuid: dialog, name: 'WhatsApp', type: 'whatsapp_360dialog' },
      config: { status: 'PENDING', category: 'MARKETING', language: 'pt_BR' },
    });
    expect(created.body.data.config.components).toHaveLength(4);
    expect((await announced).template.uuid).toBe(created.body.data.uuid);
    const jobs = await t.database.db.outboxJob.findMany({ where: { tenantId: acme.tenantId, queue: queues.templateSync.name } });
    expect(jobs.map((j) => j.payload)).toEqual([{ tenant_uuid: acme.tenantId, template_uuid: created.body.data.uuid, action: 'submit' }]);
    socket.disconnect();
  });

  it('approves at once where no provider reviews (custom channel) and lists with filters, paging and upper-case status', async () => {
    const db = t.database.db;
    expect(
      (await t.http.post(`/api/v1/channels/${custom}/outbound_templates`).set(auth('campaigns')).send(standard('order_ready'))).body.data
        .config.status,
    ).toBe('APPROVED');
    // A provider that wrote its status in lower case is still read upper-cased.
    await db.outboundTemplate.updateMany({ where: { name: 'order_ready' }, data: { status: 'approved' } });
    const all = await t.http.get('/api/v1/channels/outbound_templates?_limit=1').set(auth('agent'));
    expect(all.status).toBe(200);
    expect(all.body.pagination.total).toBe(2);
    expect(all.body.data).toHaveLength(1);
    const approved = await t.http.get('/api/v1/channels/outbound_templates?status=approved').set(auth('agent'));
    expect(approved.body.data.map((x: { name: string; config: { status: string } }) => [x.name, x.config.status])).toEqual([
      ['order_ready', 'APPROVED'],
    ]);
    expect(
      (await t.http.get(`/api/v1/channels/${dialog}/outbound_templates`).set(auth('agent'))).body.data.map((x: { name: string }) => x.name),
    ).toEqual(['welcome_offer']);
    expect((await t.http.get('/api/v1/channels/outbound_templates?name__contains=OFFER').set(auth('agent'))).body.data).toHaveLength(1);
    expect(
      (await t.http.get('/api/v1/channels/outbound_templates?category=UTILITY').set(auth('agent'))).body.data.map(
        (x: { name: string }) => x.name,
      ),
    ).toEqual(['order_ready']);
    expect(
      (await t.http.get(`/api/v1/channels/outbound_templates?channel_uuid=${custom}&language=en`).set(auth('agent'))).body.data,
    ).toEqual([]);
    expect((await t.http.get('/api/v1/channels/outbound_templates?category=OTHER').set(auth('agent'))).status).toBe(400);
    expect((await t.http.get('/api/v1/channels/outbound_templates').set(auth('outsider'))).body.data).toEqual([]);
  });

  it('refuses every rule with its message, and changes nothing', async () => {
    const post = (channel: string, body: object) =>
      t.http.post(`/api/v1/channels/${channel}/outbound_templates`).set(auth('campaigns')).send(body);
    const body = (text: string) => [{ type: 'BODY', text }];
    const cases: [string, object, string][] = [
      [dialog, { ...welcome, name: 'Bad Name' }, 'Name can only contain lower case alphanumeric characters and underscores'],
      [
        dialog,
        { ...welcome, name: 'h60', components: [{ type: 'HEADER', format: 'TEXT', text: 'x'.repeat(61) }, ...body('hi')] },
        '60 characters maximum',
      ],
      [dialog, { ...welcome, name: 'b1024', components: body('x'.repeat(1025)) }, '1024 maximum characters'],
      [
        dialog,
        { ...welcome, name: 'dot', components: [...body('hi'), { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Sim.' }] }] },
        'Pontos não são permitidos',
      ],
      [
        dialog,
        {
          ...welcome,
          name: 'four',
          components: [...body('hi'), { type: 'BUTTONS', buttons: ['a', 'b', 'c', 'd'].map((text) => ({ type: 'QUICK_REPLY', text })) }],
        },
        'Maximum of 3 quick reply buttons',
      ],
      [
        dialog,
        { ...welcome, name: 'auth', category: 'AUTHENTICATION', components: body('code {{1}}') },
        'Authentication templates cannot be created here',
      ],
      [web, { ...welcome, name: 'web_media' }, 'WhatsApp Web channels only support standard templates'],
    ];
    for (const [channel, input, message] of cases) {
      const answer = await post(channel, input);
      expect(answer.status, message).toBe(400);
      expect(answer.body.error_message).toBe(message);
    }
    expect((await post(cloud, standard('on_cloud'))).status).toBe(422);
    expect((await post(dialog, welcome)).status).toBe(409);
    expect((await t.http.post(`/api/v1/channels/${dialog}/outbound_templates`).set(auth('agent')).send(standard('nope'))).status).toBe(403);
    expect((await t.http.post(`/api/v1/channels/${dialog}/outbound_templates`).set(auth('outsider')).send(standard('nope'))).status).toBe(
      404,
    );
    expect(await t.database.db.outboundTemplate.count({ where: { tenantId: acme.tenantId } })).toBe(2);
  });

  it('edits by name and language (category locked, authentication never), resubmitting for approval', async () => {
    const db = t.database.db;
    await db.outboundTemplate.updateMany({ where: { name: 'welcome_offer' }, data: { status: 'APPROVED', syncPending: null } });
    const edited = await t.http
      .put(`/api/v1/channels/${dialog}/outbound_templates`)
      .set(auth('campaigns'))
      .send({ ...welcome, components: [{ type: 'BODY', text: 'Novo texto' }] });
    expect(edited.status).toBe(200);
    expect(edited.body.data.config).toMatchObject({ status: 'PENDING', components: [{ type: 'BODY', text: 'Novo texto' }] });
    expect(
      (
        await t.http
          .put(`/api/v1/channels/${dialog}/outbound_templates`)
          .set(auth('campaigns'))
          .send({ ...welcome, category: 'UTILITY' })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.http
          .put(`/api/v1/channels/${dialog}/outbound_templates`)
          .set(auth('campaigns'))
          .send({ ...welcome, name: 'missing' })
      ).status,
    ).toBe(404);
    const auth_ = await db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: dialog,
        name: 'otp',
        language: 'pt_BR',
        category: 'AUTHENTICATION',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: '{{1}}' }],
      },
    });
    const blocked = await t.http
      .put(`/api/v1/channels/${dialog}/outbound_templates`)
      .set(auth('campaigns'))
      .send({ ...standard('otp'), category: 'AUTHENTICATION' });
    expect(blocked.status).toBe(422);
    expect(blocked.body.error_message).toBe('Templates da categoria Autenticação não podem ser editados');
    expect((await db.outboundTemplate.findUniqueOrThrow({ where: { id: auth_.id } })).components).toEqual([
      { type: 'BODY', text: '{{1}}' },
    ]);
  });

  it('deletes a template (and queues its deletion at the provider)', async () => {
    const [row] = (await t.http.get(`/api/v1/channels/${dialog}/outbound_templates?name__contains=welcome`).set(auth('campaigns'))).body
      .data;
    expect((await t.http.delete(`/api/v1/channels/outbound_templates/${row.uuid}`).set(auth('outsider'))).status).toBe(404);
    expect((await t.http.delete(`/api/v1/channels/outbound_templates/${row.uuid}`).set(auth('campaigns'))).status).toBe(200);
    expect((await t.http.delete(`/api/v1/channels/outbound_templates/${row.uuid}`).set(auth('campaigns'))).status).toBe(404);
    expect(
      (await t.http.get(`/api/v1/channels/${dialog}/outbound_templates?name__contains=welcome`).set(auth('campaigns'))).body.data,
    ).toEqual([]);
    const jobs = await t.database.db.outboxJob.findMany({
      where: { tenantId: acme.tenantId, queue: queues.templateSync.name },
      orderBy: { createdAt: 'asc' },
    });
    expect(jobs.at(-1)?.payload).toEqual({ tenant_uuid: acme.tenantId, template_uuid: row.uuid, action: 'delete' });
    // The name is free again.
    expect((await t.http.post(`/api/v1/channels/${dialog}/outbound_templates`).set(auth('campaigns')).send(welcome)).status).toBe(201);
  });
});
