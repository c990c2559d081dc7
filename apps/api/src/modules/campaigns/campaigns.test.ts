import { queues, SUBSCRIBER_IMPORT_ERRORS } from '@atende/contract';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
let channel: string;
let template: string;
let pausedTemplate: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', {
    users: { agent: ['agent'], admin: ['admin'], campaigns: ['campaign_manager'], campaigns2: ['campaign_manager'] },
  });
  await t.tenant('Other', { users: { campaigns: ['campaign_manager'] } });
  for (const name of ['agent', 'admin', 'campaigns', 'campaigns2']) tokens[name] = await t.login(`${name}@acme.test`);
  tokens.outsider = await t.login('campaigns@other.test');
  const db = t.database.db;
  channel = (
    await db.channel.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'WhatsApp', type: 'whatsapp_360dialog' },
    })
  ).id;
  const components = [
    { type: 'BODY', text: 'Olá {{1}}' },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'QUICK_REPLY', text: 'Quero' },
        { type: 'QUICK_REPLY', text: 'Sair' },
      ],
    },
  ];
  template = (
    await db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: channel,
        name: 'oferta',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components,
      },
    })
  ).id;
  pausedTemplate = (
    await db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: channel,
        name: 'pausado',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'PAUSED',
        components: [{ type: 'BODY', text: 'x' }],
      },
    })
  ).id;
});
afterAll(() => t.close());
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });

const payload = (overrides: Record<string, unknown> = {}) => ({
  name: 'Black Friday',
  channel_uuid: channel,
  whatsapp_template_uuid: template,
  dnd_list: [{ uuid: null, name: 'Não quero mais' }],
  inbound_entrypoint: acme.sectors[0]!.id,
  config: {
    default_action: { action: 'end_with_message', message: 'Obrigado!' },
    reply_actions: {
      Quero: { action: 'transfer_to_sector', sector_uuid: acme.sectors[0]!.id, message: 'Já te atendemos' },
      Sair: { action: 'end_with_message' },
    },
  },
  ...overrides,
});
const create = (name = 'campaigns', overrides: Record<string, unknown> = {}) =>
  t.http.post('/api/v1/campaign').set(auth(name)).send(payload(overrides));

describe('campaigns api', () => {
  let id: string;

  it('creates a campaign with its DND lists, reply actions and entry point; defaults public and conversation mode', async () => {
    const res = await create();
    expect(res.status).toBe(201);
    id = res.body.data.uuid;
    expect(res.body.data).toMatchObject({
      name: 'Black Friday',
      mode: 'conversation',
      public: true,
      state: 'stopped',
      desired_state: 'stopped',
      valid_subscriber_count: 0,
      channel: { uuid: channel },
      template: { uuid: template, config: { status: 'APPROVED' } },
      inbound_entrypoint: { uuid: acme.sectors[0]!.id, type: 'sector' },
      dnd_list: [{ name: 'Não quero mais' }],
    });
    expect((await t.http.get('/api/v1/dnd').set(auth('campaigns'))).body.data.map((d: { name: string }) => d.name)).toEqual([
      'Não quero mais',
    ]);
  });

  it('refuses every bad payload with its message and stores nothing', async () => {
    const before = await t.database.db.campaign.count();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: ' ' }, 'Name is required'],
      [{ name: 'x'.repeat(81) }, 'Name must have less than 80 characters'],
      [{ channel_uuid: 'nope' }, 'Channel is required'],
      [{ whatsapp_template_uuid: pausedTemplate }, 'Você só poderá iniciar a campanha se o modelo estiver aprovado.'],
      [
        { config: { default_action: { action: 'end_with_message' }, reply_actions: { Quero: { action: 'end_with_message' } } } },
        'Action is required',
      ],
      [
        {
          config: {
            default_action: { action: 'end_with_message' },
            reply_actions: {
              Quero: { action: 'end_with_message' },
              Sair: { action: 'end_with_message' },
              Talvez: { action: 'end_with_message' },
            },
          },
        },
        'The template has no button Talvez',
      ],
      [{ config: { default_action: { action: 'end_dnd', dnd_list: [], message: 'x' }, reply_actions: {} } }, 'This field is required'],
      [
        {
          config: {
            default_action: { action: 'chatbot_outbound', bot_uuid: acme.sectors[0]!.id },
            reply_actions: { Quero: { action: 'end_with_message' }, Sair: { action: 'end_with_message' } },
          },
        },
        'Bot not found',
      ],
      [{ start_at: '2020-01-01T00:00:00.000Z' }, 'The schedule must be in the future'],
    ];
    for (const [overrides, message] of cases) {
      const res = await create('campaigns', overrides);
      expect(res.status, message).toBe(400);
      expect(res.body.error_message).toContain(message);
    }
    expect((await create('agent')).status).toBe(403);
    expect((await create('outsider')).status).toBe(400);
    expect(await t.database.db.campaign.count()).toBe(before);
  });

  it('lists own and public campaigns, never private ones of others, with filters and paging', async () => {
    const hidden = await create('campaigns2', { name: 'Privada', public: false, dnd_list: [] });
    expect(hidden.status).toBe(201);
    const names = async (name: string, query = '') =>
      (await t.http.get(`/api/v1/campaign${query}`).set(auth(name))).body.data.map((c: { name: string }) => c.name);
    expect(await names('campaigns')).toEqual(['Black Friday']);
    expect(await names('campaigns2')).toEqual(['Privada', 'Black Friday']);
    expect(await names('campaigns2', '?only_my_campaigns=true')).toEqual(['Privada']);
    expect(await names('admin', '?name=priv')).toEqual(['Privada']);
    expect(await names('admin', '?state=running')).toEqual([]);
    expect((await t.http.get(`/api/v1/campaign/${hidden.body.data.uuid}`).set(auth('campaigns'))).status).toBe(404);
    expect((await t.http.get('/api/v1/campaign').set(auth('outsider'))).body.data).toEqual([]);
    expect((await t.http.get('/api/v1/campaign?state=nope').set(auth('campaigns'))).status).toBe(400);
  });

  it('edits with name, channel and template locked; refuses to start without valid subscribers', async () => {
    const edited = await t.http
      .patch(`/api/v1/campaign/${id}`)
      .set(auth('campaigns'))
      .send({ mode: 'broadcast', public: false, campaignUuid: id });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ mode: 'broadcast', public: false });
    expect((await t.http.patch(`/api/v1/campaign/${id}`).set(auth('campaigns')).send({ name: 'Outro' })).status).toBe(400);
    const start = await t.http.post(`/api/v1/campaign/${id}/desired_state`).set(auth('campaigns')).send({ desired_state: 'running' });
    expect(start.status).toBe(422);
    expect(start.body.error_message).toBe('There are no valid subscribers for this campaign');
  });

  it('imports only CSV files with name and phone, up to 5 MB, one import at a time', async () => {
    const upload = (content: string | Buffer, type = 'text/csv', filename = 's.csv') =>
      t.http
        .post(`/api/v1/campaign/${id}/subscribers`)
        .set(auth('campaigns'))
        .attach('file', Buffer.from(content), { filename, contentType: type });
    const wrongType = await upload('name,phone\nAna,11988887777', 'application/pdf', 's.pdf');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error_message).toBe('File parameter must be a csv file');
    const columns = await upload('nome,telefone\nAna,11988887777');
    expect(columns.status).toBe(400);
    expect(columns.body.error_message).toBe('Invalid file! It must have at least name and phone');
    // Read as the worker reads it: a Windows-1252 ; file's header too.
    expect((await upload(Buffer.from('nome;telefone\nJoão;11988887777', 'latin1'))).body.error_message).toBe(
      'Invalid file! It must have at least name and phone',
    );
    // What cannot be decoded is refused at once with a stable code: binary, an old .xls saved under .csv.
    let seed = 11;
    const binary = Buffer.from(Array.from({ length: 8192 }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >> 16) & 0xff));
    for (const bytes of [binary, Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.alloc(600)])]) {
      const undecodable = await upload(bytes);
      expect(undecodable.status).toBe(422);
      expect(undecodable.body).toMatchObject({ code: 'subscriber_file_unreadable', error_message: SUBSCRIBER_IMPORT_ERRORS.undecodable });
    }
    // A refused file leaves nothing behind: no stored file, no import job.
    expect(await t.database.db.storedFile.count({ where: { tenantId: acme.tenantId } })).toBe(0);
    expect(await t.database.db.outboxJob.count({ where: { tenantId: acme.tenantId, queue: queues.subscriberImport.name } })).toBe(0);
    expect((await upload(Buffer.alloc(5_242_881, 'a'))).status).toBe(413);
    const ok = await upload('name,phone,1\nAna,11988887777,Ana\nBia,11988887778,Bia');
    expect(ok.status).toBe(202);
    expect((await upload('name,phone,1\nAna,11988887777,Ana')).status).toBe(409);
    const jobs = await t.database.db.outboxJob.findMany({ where: { tenantId: acme.tenantId, queue: queues.subscriberImport.name } });
    expect(jobs).toHaveLength(1);
    expect((await t.http.get(`/api/v1/campaign/${id}`).set(auth('campaigns'))).body.data.import_status).toBe('pending');
  });

  it('offers the import template as CSV or Excel, named after the campaign, its columns after the placeholders', async () => {
    const csv = await t.http
      .get(`/api/v1/campaign/${id}/subscribers/template`)
      .set(auth('campaigns'))
      .set('Accept', 'text/csv')
      .set('Accept-Language', 'pt-BR,pt;q=0.9');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="subscribers-Black_Friday.csv"');
    // Notes (instructions, then the example) start with #: the file uploaded unchanged imports nobody.
    const lines = csv.text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines.filter((l: string) => !l.startsWith('#'))).toEqual(['name,phone,body_1', '']);
    expect(lines[0]).toContain('Um assinante por linha');
    expect(lines).toContain('# Maria Silva,+55 11 98765-4321,body_1 example');
    const xlsx = await t.http
      .get(`/api/v1/campaign/${id}/subscribers/template`)
      .set(auth('campaigns'))
      .set('Accept', 'application/vnd.ms-excel')
      .responseType('blob');
    expect(xlsx.headers['content-disposition']).toBe('attachment; filename="subscribers-Black_Friday.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(new Uint8Array(xlsx.body as Buffer).buffer);
    expect(workbook.worksheets.map((w) => w.name)).toEqual(['subscribers', 'instructions']);
    expect(workbook.worksheets[0]!.getRow(1).values).toEqual([undefined, 'name', 'phone', 'body_1']);
    expect(workbook.worksheets[0]!.getRow(2).getCell(1).value).toBe('# Maria Silva');
  });

  it('accepts an .xlsx or a Windows-1252 ; separated CSV', async () => {
    const db = t.database.db;
    const post = (bytes: Buffer, filename: string, contentType: string) =>
      t.http.post(`/api/v1/campaign/${id}/subscribers`).set(auth('campaigns')).attach('file', bytes, { filename, contentType });
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('s').addRows([
      ['Name', 'Phone', 'body_1'],
      ['João', '11988887777', 'João'],
    ]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const cp1252 = Buffer.from('name;phone;body_1\r\nJoão;11988887777;Olá João', 'latin1');
    for (const [bytes, filename, type] of [
      [xlsx, 's.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      [xlsx, 's.xlsx', 'application/octet-stream'],
      [cp1252, 's.csv', 'application/vnd.ms-excel'],
    ] as const) {
      await db.campaign.update({ where: { id }, data: { importStatus: 'done' } });
      expect((await post(bytes, filename, type)).status, `${filename} ${type}`).toBe(202);
    }
    await db.campaign.update({ where: { id }, data: { importStatus: 'done' } });
    expect((await post(xlsx, 's.pdf', 'application/pdf')).status).toBe(415);
    const header = new ExcelJS.Workbook();
    header.addWorksheet('s').addRow(['nome', 'telefone']);
    const columns = await post(
      Buffer.from(await header.xlsx.writeBuffer()),
      's.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(columns.status).toBe(400);
    expect(columns.body.error_message).toBe('Invalid file! It must have at least name and phone');
    const damaged = await post(xlsx.subarray(0, 200), 's.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(damaged.status).toBe(422);
    expect(damaged.body.code).toBe('subscriber_file_unreadable');
  });

  // Putting a subscriber back to pending re-checks it; nobody is sent the campaign twice.
  it('refuses to queue again a subscriber who got the campaign, or one whose parameter is still missing', async () => {
    const db = t.database.db;
    const make = (phone: string, data: { parameters: string[]; state: string; sentAt?: Date; errorMessage?: string }) =>
      db.campaignSubscriber.create({ data: { tenantId: acme.tenantId, campaignId: id, name: 'S', phoneNumber: phone, ...data } });
    const missing = await make('+5511988886601', { parameters: [''], state: 'error', errorMessage: 'Parameter 1 is required' });
    const answered = await make('+5511988886602', { parameters: ['Ana'], state: 'completed', sentAt: new Date() });
    const refusedByProvider = await make('+5511988886603', {
      parameters: ['Bia'],
      state: 'error',
      errorMessage: 'Recipient is not a valid WhatsApp user',
    });
    const toPending = (subscriber: { id: string }) =>
      t.http.post(`/api/v1/campaign/${id}/subscribers/${subscriber.id}`).set(auth('campaigns')).send({ state: 'pending' });

    const stillMissing = await toPending(missing);
    expect(stillMissing.status).toBe(422);
    expect(stillMissing.body).toMatchObject({
      code: 'subscriber_parameter_missing',
      error_message: 'Parameter 1 is required',
      params: { n: 1 },
    });
    const again = await toPending(answered);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('subscriber_already_sent');
    expect((await toPending(refusedByProvider)).body.data.state).toBe('pending');
    expect((await db.campaignSubscriber.findUniqueOrThrow({ where: { id: missing.id } })).state).toBe('error');
    expect((await db.campaignSubscriber.findUniqueOrThrow({ where: { id: answered.id } })).state).toBe('completed');
    await db.campaignSubscriber.deleteMany({ where: { id: { in: [missing.id, answered.id, refusedByProvider.id] } } });
  });

  it('edits error/pending/completed subscribers, deletes pending ones only, and starts once there are valid ones', async () => {
    const db = t.database.db;
    await db.campaign.update({ where: { id }, data: { importStatus: 'done' } });
    const [pending, sent] = await Promise.all([
      db.campaignSubscriber.create({
        data: { tenantId: acme.tenantId, campaignId: id, name: 'Ana', phoneNumber: '+5511988887777', parameters: ['Ana'] },
      }),
      db.campaignSubscriber.create({
        data: { tenantId: acme.tenantId, campaignId: id, name: 'Bia', phoneNumber: '+5511988887778', parameters: ['Bia'], state: 'sent' },
      }),
    ]);
    const list = await t.http.get(`/api/v1/campaign/${id}/subscribers?states[]=sent`).set(auth('campaigns'));
    expect(list.body.data.map((s: { uuid: string }) => s.uuid)).toEqual([sent.id]);
    expect(
      (await t.http.post(`/api/v1/campaign/${id}/subscribers/${sent.id}`).set(auth('campaigns')).send({ state: 'pending' })).status,
    ).toBe(422);
    const deleteSent = await t.http.delete(`/api/v1/campaign/${id}/subscribers/${sent.id}`).set(auth('campaigns'));
    expect(deleteSent.status).toBe(422);
    expect(deleteSent.body.error_message).toBe('Only subscribers with pending state can be deleted');
    expect(
      (await t.http.post(`/api/v1/campaign/${id}/subscribers/${pending.id}`).set(auth('campaigns')).send({ state: 'completed' })).body.data
        .state,
    ).toBe('completed');

    const started = await t.http.post(`/api/v1/campaign/${id}/desired_state`).set(auth('campaigns')).send({ desired_state: 'running' });
    expect(started.status).toBe(200);
    expect(started.body.data.desired_state).toBe('running');
    expect(await db.outboxJob.count({ where: { tenantId: acme.tenantId, queue: queues.campaignDispatch.name } })).toBe(1);
    await db.campaign.update({ where: { id }, data: { state: 'running' } });
    const refused = await t.http.delete(`/api/v1/campaign/${id}`).set(auth('campaigns'));
    expect(refused.status).toBe(409);
    expect(refused.body.error_message).toBe('Você não pode deletar uma campanha que está rodando.');
    const stop = await t.http.post(`/api/v1/campaign/${id}/desired_state`).set(auth('campaigns')).send({ desired_state: 'stopped' });
    expect(stop.body.data).toMatchObject({ state: 'running', desired_state: 'stopped' });
  });

  it('refuses starting or editing a campaign whose template was deleted', async () => {
    const other = await create('campaigns', { name: 'Sem template', dnd_list: [] });
    await t.database.db.outboundTemplate.update({ where: { id: template }, data: { deletedAt: new Date() } });
    const start = await t.http
      .post(`/api/v1/campaign/${other.body.data.uuid}/desired_state`)
      .set(auth('campaigns'))
      .send({ desired_state: 'running' });
    expect(start.body.error_message).toBe('Você não pode iniciar uma campanha que usa um modelo que foi deletado.');
    const edit = await t.http.patch(`/api/v1/campaign/${other.body.data.uuid}`).set(auth('campaigns')).send({ public: false });
    expect(edit.body.error_message).toBe('Você não pode editar uma campanha que usa um template que foi deletado.');
    const upload = await t.http
      .post(`/api/v1/campaign/${other.body.data.uuid}/subscribers`)
      .set(auth('campaigns'))
      .attach('file', Buffer.from('name,phone\nA,1'), { filename: 's.csv', contentType: 'text/csv' });
    expect(upload.body.error_message).toBe('Não é possível importar assinantes para uma campanha que teve seu template deletado');
    await t.database.db.outboundTemplate.update({ where: { id: template }, data: { deletedAt: null } });
  });
});

describe('do-not-disturb lists', () => {
  it('links a contact to lists, shows them on the contact, lists and removes it', async () => {
    const list = await t.http.post('/api/v1/dnd').set(auth('campaigns')).send({ name: 'Reclamações' });
    expect(list.status).toBe(201);
    expect((await t.http.post('/api/v1/dnd').set(auth('campaigns')).send({ name: ' ' })).status).toBe(400);
    const contact = await t.http
      .post('/api/v1/contacts')
      .set(auth('campaigns'))
      .send({ name: 'Rui', phone1: '11955554444', organization: 'Rui ME' });
    const linked = await t.http
      .post(`/api/v1/contacts/${contact.body.data.uuid}/dnd`)
      .set(auth('campaigns'))
      .send({ dnd_list: [list.body.data.uuid] });
    expect(linked.body.data.dnd_list).toEqual([{ uuid: list.body.data.uuid, name: 'Reclamações' }]);
    expect(
      (await t.http.post(`/api/v1/contacts/${contact.body.data.uuid}/dnd`).set(auth('campaigns')).send({ dnd_list: [] })).body
        .error_message,
    ).toContain('Deve ser escolhida pelo menos uma lista');
    const consult = await t.http.get('/api/v1/contacts?number__equals=11955554444').set(auth('campaigns'));
    expect(consult.body.data[0].dnd_list).toEqual([{ uuid: list.body.data.uuid, name: 'Reclamações' }]);
    const members = await t.http.get(`/api/v1/dnd/${list.body.data.uuid}/contacts`).set(auth('campaigns'));
    expect(members.body.data).toEqual([{ uuid: contact.body.data.uuid, name: 'Rui', phone_number: '+5511955554444' }]);
    expect(
      (await t.http.get('/api/v1/dnd').set(auth('campaigns'))).body.data.find((d: { uuid: string }) => d.uuid === list.body.data.uuid)
        .contact_count,
    ).toBe(1);
    expect(
      (await t.http.delete(`/api/v1/dnd/${list.body.data.uuid}/contacts/${contact.body.data.uuid}`).set(auth('outsider'))).status,
    ).toBe(404);
    expect(
      (await t.http.delete(`/api/v1/dnd/${list.body.data.uuid}/contacts/${contact.body.data.uuid}`).set(auth('campaigns'))).status,
    ).toBe(200);
    expect(
      (await t.http.delete(`/api/v1/dnd/${list.body.data.uuid}/contacts/${contact.body.data.uuid}`).set(auth('campaigns'))).status,
    ).toBe(404);
  });
});

describe('campaign report', () => {
  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

  it('applies the filter rules with the spec messages', async () => {
    const get = (query: string) => t.http.get(`/api/v1/reports/campaign/subscribers?${query}`).set(auth('campaigns'));
    const cases: [string, string][] = [
      [`end=${today}`, 'Please define a start date for this report.'],
      [`start=${today}`, 'Please define an end date for this report.'],
      [`start=2999-01-01&end=2999-01-02`, 'Cannot load report for a start date in future.'],
      [`start=${today}&end=2999-01-02`, 'Cannot load report for an end date in future.'],
      [`start=${daysAgo(40)}&end=${today}`, 'O intervalo máximo é de 31 dias.'],
      [
        `start=${daysAgo(2)}&end=${today}&conversation_field_key=Pedido&conversation_field_value=ab`,
        'Filter Value should have at least 3 characters',
      ],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect(res.status, message).toBe(400);
      expect(res.body.error_message).toBe(message);
    }
    expect((await t.http.get(`/api/v1/reports/campaign/summary?start=${today}&end=${today}`).set(auth('agent'))).status).toBe(403);
  });

  it('lists the subscribers with what they answered, sums them up, and exports CSV without live formulas', async () => {
    const db = t.database.db;
    const campaign = await create('campaigns', { name: 'Relatório', dnd_list: [] });
    const id = campaign.body.data.uuid;
    await db.campaignSubscriber.createMany({
      data: [
        {
          tenantId: acme.tenantId,
          campaignId: id,
          name: '=HYPERLINK("x")',
          phoneNumber: '+5511900000001',
          state: 'completed',
          sentAt: new Date(),
          repliedAt: new Date(),
          replyAction: 'Quero',
          replyText: 'Quero',
        },
        {
          tenantId: acme.tenantId,
          campaignId: id,
          name: 'Bia',
          phoneNumber: '+5511900000002',
          state: 'error',
          errorMessage: '360dialog answered 400',
        },
        { tenantId: acme.tenantId, campaignId: id, name: 'Caio', phoneNumber: '+5511900000003', state: 'sent', sentAt: new Date() },
      ],
    });
    const query = `start=${daysAgo(1)}&end=${today}&campaigns=${id}`;
    const report = await t.http.get(`/api/v1/reports/campaign/subscribers?${query}`).set(auth('campaigns'));
    expect(report.status).toBe(200);
    expect(report.body.pagination.total).toBe(3);
    expect(report.body.data.find((r: { phone_number: string }) => r.phone_number === '+5511900000001')).toMatchObject({
      campaign_name: 'Relatório',
      template: 'oferta',
      state: 'completed',
      reply_action: 'Quero',
    });
    const summary = await t.http.get(`/api/v1/reports/campaign/summary?${query}`).set(auth('campaigns'));
    expect(summary.body.data).toMatchObject({ subscribers_count: 3, sent_count: 2, error_count: 1, completed_count: 1 });
    expect((await t.http.get(`/api/v1/reports/campaign/subscribers?${query}&state=error`).set(auth('campaigns'))).body.data).toHaveLength(
      1,
    );
    const csv = await t.http.get(`/api/v1/reports/campaign/subscribers?${query}&_limit=0`).set(auth('campaigns')).set('Accept', 'text/csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="campaign-report-.+\.csv"$/);
    // UTF-8 byte order mark first, so Excel reads the accents right.
    expect(csv.text.split('\n')[0]).toBe(
      '\uFEFFcampaign_name,name,phone_number,state,error_message,template,sent_at,delivery,delivered_at,read_at,replied_at,reply_action,reply_text,conversation_uuid',
    );
    expect(csv.text).toContain(`"'=HYPERLINK(""x"")"`);
    const json = await t.http.get(`/api/v1/reports/campaign/subscribers?${query}&_limit=0&format=json`).set(auth('campaigns'));
    expect(JSON.parse(json.text)).toHaveLength(3);
    const xlsx = await t.http
      .get(`/api/v1/reports/campaign/subscribers?${query}&_limit=0&format=excel`)
      .set(auth('campaigns'))
      .responseType('blob');
    expect((xlsx.body as Buffer).subarray(0, 2).toString()).toBe('PK');
    expect((await t.http.get(`/api/v1/reports/campaign/subscribers?${query}`).set(auth('outsider'))).body.data).toEqual([]);
  });
});

describe('do-not-disturb list changes', () => {
  it('renames and deletes a list; a running campaign keeps its lists', async () => {
    const list = (await t.http.post('/api/v1/dnd').set(auth('campaigns')).send({ name: 'Temporária' })).body.data;
    expect((await t.http.patch(`/api/v1/dnd/${list.uuid}`).set(auth('campaigns')).send({ name: 'Renomeada' })).body.data.name).toBe(
      'Renomeada',
    );
    expect((await t.http.patch(`/api/v1/dnd/${list.uuid}`).set(auth('campaigns')).send({ name: '' })).status).toBe(400);
    const running = await create('campaigns', { name: 'Usa lista', dnd_list: [{ uuid: list.uuid, name: 'Renomeada' }] });
    await t.database.db.campaign.update({ where: { id: running.body.data.uuid }, data: { state: 'running', desiredState: 'running' } });
    expect((await t.http.delete(`/api/v1/dnd/${list.uuid}`).set(auth('campaigns'))).status).toBe(409);
    await t.database.db.campaign.update({ where: { id: running.body.data.uuid }, data: { state: 'stopped', desiredState: 'stopped' } });
    expect((await t.http.delete(`/api/v1/dnd/${list.uuid}`).set(auth('campaigns'))).status).toBe(200);
    expect((await t.http.get(`/api/v1/campaign/${running.body.data.uuid}`).set(auth('campaigns'))).body.data.dnd_list).toEqual([]);
    expect((await t.http.get('/api/v1/dnd').set(auth('campaigns'))).body.data.map((d: { uuid: string }) => d.uuid)).not.toContain(
      list.uuid,
    );
    expect((await t.http.delete(`/api/v1/dnd/${list.uuid}`).set(auth('outsider'))).status).toBe(404);
  });
});
