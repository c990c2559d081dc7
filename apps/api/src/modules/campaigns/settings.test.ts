import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

// A campaign's entry point may be a sector, a menu or a bot; a campaign with
// an end_dnd action consults a DND list; default DND lists; template changes name the campaigns.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
let channel: string;
let menu: string;
let menuOff: string;
let bot: string;
let otherSector: string;

const buttons = (...texts: string[]) => ({ type: 'BUTTONS', buttons: texts.map((text) => ({ type: 'QUICK_REPLY', text })) });
const body = { type: 'BODY', text: 'Olá, temos uma oferta.' };

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { campaigns: ['campaign_manager'] } });
  other = await t.tenant('Other', { users: { campaigns: ['campaign_manager'] } });
  tokens.campaigns = await t.login('campaigns@acme.test');
  const db = t.database.db;
  // A custom channel: its templates are usable at once (no provider review), so edits keep them APPROVED.
  channel = (await db.channel.create({ data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'API', type: 'custom' } })).id;
  const ws = { tenantId: acme.tenantId, workspaceId: acme.workspaceId };
  menu = (await db.automatedMenu.create({ data: { ...ws, name: 'Menu principal', message: 'Escolha', invalidOptionMessage: 'Inválida' } }))
    .id;
  menuOff = (
    await db.automatedMenu.create({ data: { ...ws, name: 'Menu desligado', message: 'x', invalidOptionMessage: 'y', enabled: false } })
  ).id;
  bot = (await db.bot.create({ data: { ...ws, name: 'Robô' } })).id;
  otherSector = other.sectors[0]!.id;
});
afterAll(() => t.close());
const auth = () => ({ Authorization: `Bearer ${tokens.campaigns}` });

let templateSeq = 0;
async function template(...texts: string[]) {
  const res = await t.http
    .post(`/api/v1/channels/${channel}/outbound_templates`)
    .set(auth())
    .send({ name: `oferta_${++templateSeq}`, category: 'MARKETING', language: 'pt_BR', components: [body, buttons(...texts)] });
  expect(res.status).toBe(201);
  return res.body.data as { uuid: string; name: string };
}
const config = (texts: string[]) => ({
  default_action: { action: 'end_with_message' },
  reply_actions: Object.fromEntries(texts.map((b) => [b, { action: 'end_with_message' }])),
});
async function create(templateUuid: string, overrides: Record<string, unknown> = {}, texts = ['Quero']) {
  return t.http
    .post('/api/v1/campaign')
    .set(auth())
    .send({ name: 'Campanha', channel_uuid: channel, whatsapp_template_uuid: templateUuid, config: config(texts), ...overrides });
}

describe('campaign inbound entry point', () => {
  let tpl: string;
  beforeAll(async () => {
    tpl = (await template('Quero')).uuid;
  });

  it("lists the workspace's sectors, menus (a switched-off one not enabled) and bots as entry points", async () => {
    const res = await t.http.get('/api/v1/campaign/inbound_entrypoints').set(auth());
    expect(res.status).toBe(200);
    const byUuid = new Map((res.body.data as { uuid: string }[]).map((e) => [e.uuid, e]));
    expect(byUuid.get(acme.sectors[0]!.id)).toMatchObject({ type: 'sector', enabled: true });
    expect(byUuid.get(menu)).toMatchObject({ type: 'menu', name: 'Menu principal', enabled: true });
    expect(byUuid.get(menuOff)).toMatchObject({ type: 'menu', enabled: false });
    expect(byUuid.get(bot)).toMatchObject({ type: 'bot', name: 'Robô' });
    expect(byUuid.has(otherSector)).toBe(false);
  });

  it('takes a sector, a menu or a bot and answers it with its name, type and enabled', async () => {
    const cases = [
      [acme.sectors[0]!.id, { uuid: acme.sectors[0]!.id, type: 'sector', enabled: true }],
      [
        { uuid: menu, type: 'menu' },
        { uuid: menu, name: 'Menu principal', type: 'menu', enabled: true },
      ],
      [
        { uuid: bot, type: 'bot' },
        { uuid: bot, name: 'Robô', type: 'bot', enabled: true },
      ],
    ] as const;
    for (const [input, expected] of cases) {
      const res = await create(tpl, { inbound_entrypoint: input });
      expect(res.status, JSON.stringify(input)).toBe(201);
      expect(res.body.data.inbound_entrypoint).toMatchObject(expected);
    }
  });

  it('switches the entry point on edit, keeps one at a time, and shows a menu switched off since as not enabled', async () => {
    const id = (await create(tpl, { inbound_entrypoint: { uuid: bot, type: 'bot' } })).body.data.uuid;
    const edited = await t.http
      .patch(`/api/v1/campaign/${id}`)
      .set(auth())
      .send({ inbound_entrypoint: { uuid: menu, type: 'menu' } });
    expect(edited.status).toBe(200);
    expect(edited.body.data.inbound_entrypoint).toMatchObject({ uuid: menu, type: 'menu' });
    expect(await t.database.db.campaign.findUniqueOrThrow({ where: { id } })).toMatchObject({
      entryMenuId: menu,
      entryBotId: null,
      entrySectorId: null,
    });
    await t.database.db.automatedMenu.update({ where: { id: menu }, data: { enabled: false } });
    expect((await t.http.get(`/api/v1/campaign/${id}`).set(auth())).body.data.inbound_entrypoint).toMatchObject({
      uuid: menu,
      enabled: false,
    });
    // Saving the campaign with the entry point it already has is not refused for it.
    const resaved = await t.http
      .patch(`/api/v1/campaign/${id}`)
      .set(auth())
      .send({ inbound_entrypoint: { uuid: menu, type: 'menu' }, public: false });
    expect(resaved.status).toBe(200);
    await t.database.db.automatedMenu.update({ where: { id: menu }, data: { enabled: true } });
    const cleared = await t.http.patch(`/api/v1/campaign/${id}`).set(auth()).send({ inbound_entrypoint: null });
    expect(cleared.body.data.inbound_entrypoint).toBeNull();
  });

  it('refuses an unknown, another tenant’s, a mistyped or a disabled entry point with its code, storing nothing', async () => {
    const before = await t.database.db.campaign.count();
    const cases: [unknown, number, string][] = [
      [crypto.randomUUID(), 422, 'entrypoint_not_found'],
      [otherSector, 422, 'entrypoint_not_found'],
      [{ uuid: acme.sectors[0]!.id, type: 'menu' }, 422, 'entrypoint_not_found'],
      [{ uuid: menu, type: 'bot' }, 422, 'entrypoint_not_found'],
      [{ uuid: menuOff, type: 'menu' }, 422, 'entrypoint_disabled'],
      [{ uuid: menu, type: 'queue' }, 400, 'validation_failed'],
      ['nope', 400, 'validation_failed'],
    ];
    for (const [input, status, code] of cases) {
      const res = await create(tpl, { inbound_entrypoint: input });
      expect(res.status, JSON.stringify(input)).toBe(status);
      expect(res.body).toMatchObject({ code, error_message: expect.any(String) });
    }
    expect(await t.database.db.campaign.count()).toBe(before);
    const id = (await create(tpl)).body.data.uuid;
    const res = await t.http
      .patch(`/api/v1/campaign/${id}`)
      .set(auth())
      .send({ inbound_entrypoint: { uuid: menuOff, type: 'menu' } });
    expect(res.body.code).toBe('entrypoint_disabled');
  });
});

describe('DND lists of a campaign', () => {
  let tpl: string;
  beforeAll(async () => {
    tpl = (await template('Sair')).uuid;
  });
  const optOutConfig = (list: string) => ({
    default_action: { action: 'end_with_message' },
    reply_actions: { Sair: { action: 'end_dnd', dnd_list: [list], message: 'Removido' } },
  });

  it('requires at least one DND list when a reply action is end_dnd, on create and on edit', async () => {
    const list = (await t.http.post('/api/v1/dnd').set(auth()).send({ name: 'Sair de tudo' })).body.data.uuid;
    const refused = await create(tpl, { config: optOutConfig(list), dnd_list: [] }, ['Sair']);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'dnd_list_required', fields: [{ path: 'dnd_list' }] });
    const made = await create(tpl, { config: optOutConfig(list), dnd_list: [{ uuid: list, name: 'Sair de tudo' }] }, ['Sair']);
    expect(made.status).toBe(201);
    const emptied = await t.http.patch(`/api/v1/campaign/${made.body.data.uuid}`).set(auth()).send({ dnd_list: [] });
    expect(emptied.body.code).toBe('dnd_list_required');
    expect((await t.http.get(`/api/v1/campaign/${made.body.data.uuid}`).set(auth())).body.data.dnd_list).toHaveLength(1);
    // Without end_dnd no list is needed.
    expect((await create(tpl, { dnd_list: [] }, ['Sair'])).status).toBe(201);
  });

  it('marks a list default (preselected for new campaigns) and answers the flag in lists', async () => {
    const list = (await t.http.post('/api/v1/dnd').set(auth()).send({ name: 'Padrão' })).body.data;
    expect(list.default).toBe(false);
    const marked = await t.http.patch(`/api/v1/dnd/${list.uuid}`).set(auth()).send({ default: true });
    expect(marked.status).toBe(200);
    expect(marked.body.data).toMatchObject({ name: 'Padrão', default: true });
    const listed = (await t.http.get('/api/v1/dnd').set(auth())).body.data as { uuid: string; default: boolean }[];
    expect(listed.find((l) => l.uuid === list.uuid)?.default).toBe(true);
    expect((await t.http.patch(`/api/v1/dnd/${list.uuid}`).set(auth()).send({ default: 'yes' })).status).toBe(400);
  });
});

describe('template changes and the campaigns using it', () => {
  it('changing the buttons names the campaigns (409) until confirmed, then flags them until their actions are saved again', async () => {
    const tpl = await template('Quero', 'Sair');
    const id = (await create(tpl.uuid, { name: 'Black Friday' }, ['Quero', 'Sair'])).body.data.uuid;
    expect((await t.http.get(`/api/v1/campaign/${id}`).set(auth())).body.data.actions_outdated).toBe(false);
    const edit = { name: tpl.name, category: 'MARKETING', language: 'pt_BR', components: [body, buttons('Quero muito', 'Sair')] };
    const warned = await t.http.put(`/api/v1/channels/${channel}/outbound_templates`).set(auth()).send(edit);
    expect(warned.status).toBe(409);
    expect(warned.body).toMatchObject({ code: 'template_in_use', params: { campaigns: 'Black Friday', count: 1 } });
    const db = t.database.db;
    expect((await db.outboundTemplate.findUniqueOrThrow({ where: { id: tpl.uuid } })).components).toEqual([body, buttons('Quero', 'Sair')]);

    // Same buttons, other body: nothing to warn about.
    const sameButtons = await t.http
      .put(`/api/v1/channels/${channel}/outbound_templates`)
      .set(auth())
      .send({ ...edit, components: [{ type: 'BODY', text: 'Nova oferta.' }, buttons('Quero', 'Sair')] });
    expect(sameButtons.status).toBe(200);

    const confirmed = await t.http.put(`/api/v1/channels/${channel}/outbound_templates?confirm=true`).set(auth()).send(edit);
    expect(confirmed.status).toBe(200);
    const flagged = (await t.http.get(`/api/v1/campaign/${id}`).set(auth())).body.data;
    expect(flagged.actions_outdated).toBe(true);
    expect((await t.http.get('/api/v1/campaign').set(auth())).body.data.find((c: { uuid: string }) => c.uuid === id).actions_outdated).toBe(
      true,
    );

    // Not startable while flagged (a reply to the renamed button would silently get the default action).
    await db.campaignSubscriber.create({
      data: { tenantId: acme.tenantId, campaignId: id, name: 'Ana', phoneNumber: '+5511987650001', state: 'pending' },
    });
    const start = await t.http.post(`/api/v1/campaign/${id}/desired_state`).set(auth()).send({ desired_state: 'running' });
    expect(start.status).toBe(422);
    expect(start.body.code).toBe('campaign_actions_outdated');

    // Other edits keep the flag; saving the actions against the new buttons clears it.
    expect((await t.http.patch(`/api/v1/campaign/${id}`).set(auth()).send({ public: false })).body.data.actions_outdated).toBe(true);
    expect(
      (
        await t.http
          .patch(`/api/v1/campaign/${id}`)
          .set(auth())
          .send({ config: config(['Quero', 'Sair']) })
      ).status,
    ).toBe(400);
    const remapped = await t.http
      .patch(`/api/v1/campaign/${id}`)
      .set(auth())
      .send({ config: config(['Quero muito', 'Sair']) });
    expect(remapped.status).toBe(200);
    expect(remapped.body.data.actions_outdated).toBe(false);
  });

  it('deleting a template campaigns use names them (409) and deletes only when confirmed', async () => {
    const tpl = await template('Quero');
    await create(tpl.uuid, { name: 'Natal' });
    await create(tpl.uuid, { name: 'Páscoa' });
    const warned = await t.http.delete(`/api/v1/channels/outbound_templates/${tpl.uuid}`).set(auth());
    expect(warned.status).toBe(409);
    expect(warned.body).toMatchObject({ code: 'template_in_use', params: { campaigns: 'Natal, Páscoa', count: 2 } });
    expect((await t.database.db.outboundTemplate.findUniqueOrThrow({ where: { id: tpl.uuid } })).deletedAt).toBeNull();
    expect((await t.http.delete(`/api/v1/channels/outbound_templates/${tpl.uuid}?confirm=maybe`).set(auth())).status).toBe(400);
    const deleted = await t.http.delete(`/api/v1/channels/outbound_templates/${tpl.uuid}?confirm=true`).set(auth());
    expect(deleted.status).toBe(200);
    // A template no campaign uses is deleted at once.
    const unused = await template('Oi');
    expect((await t.http.delete(`/api/v1/channels/outbound_templates/${unused.uuid}`).set(auth())).status).toBe(200);
  });
});
