import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing';

/** A campaign's final states on the api, its progress, and the report's funnel. */
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let token: string;
let channel: string;
let template: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme', { users: { campaigns: ['campaign_manager'] } });
  token = await t.login('campaigns@acme.test');
  const db = t.database.db;
  channel = (
    await db.channel.create({
      data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'WhatsApp', type: 'whatsapp_360dialog' },
    })
  ).id;
  template = (
    await db.outboundTemplate.create({
      data: {
        tenantId: acme.tenantId,
        channelId: channel,
        name: 'oferta',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Olá' }],
      },
    })
  ).id;
});
afterAll(() => t.close());
const auth = () => ({ Authorization: `Bearer ${token}` });
const create = async (name: string) => {
  const res = await t.http
    .post('/api/v1/campaign')
    .set(auth())
    .send({
      name,
      channel_uuid: channel,
      whatsapp_template_uuid: template,
      config: { default_action: { action: 'end_with_message' }, reply_actions: {} },
    });
  expect(res.status).toBe(201);
  return res.body.data.uuid as string;
};
const subscribers = (campaignId: string, rows: { state: string; delivery?: string; replied?: boolean; error?: string }[]) =>
  t.database.db.campaignSubscriber.createMany({
    data: rows.map((r, i) => ({
      tenantId: acme.tenantId,
      campaignId,
      name: `S${i}`,
      phoneNumber: `+55119${campaignId.slice(0, 4).replace(/\D/g, '0')}${String(i).padStart(4, '0')}`,
      state: r.state,
      delivery: r.delivery ?? null,
      errorMessage: r.error ?? null,
      sentAt: r.state === 'pending' || (r.state === 'error' && !r.delivery) ? null : new Date(),
      repliedAt: r.replied ? new Date() : null,
    })),
  });

describe('final campaign states (list filters)', () => {
  it('filters the list by the final states and shows each campaign’s progress', async () => {
    const done = await create('Terminada');
    const other = await create('Parada');
    await t.database.db.campaign.update({
      where: { id: done },
      data: { state: 'completed_with_engagement', desiredState: 'completed_with_engagement', finishedAt: new Date() },
    });
    await subscribers(done, [
      { state: 'completed', replied: true },
      { state: 'sent', delivery: 'read' },
      { state: 'error', error: 'x' },
      { state: 'dnd' },
    ]);
    const list = async (state: string) =>
      (await t.http.get(`/api/v1/campaign?state=${state}`).set(auth())).body.data.map((c: { name: string }) => c.name);
    expect(await list('completed_with_engagement')).toEqual(['Terminada']);
    expect(await list('completed')).toEqual([]);
    expect(await list('sent')).toEqual([]);
    expect(await list('stopped')).toEqual(['Parada']);
    expect((await t.http.get('/api/v1/campaign?state=finished').set(auth())).status).toBe(400);
    const shown = await t.http.get(`/api/v1/campaign/${done}`).set(auth());
    expect(shown.body.data).toMatchObject({
      state: 'completed_with_engagement',
      valid_subscriber_count: 2,
      progress: { total: 4, sent: 2, errors: 1, dnd: 1, remaining: 0 },
    });
    expect((await t.http.get(`/api/v1/campaign/${other}`).set(auth())).body.data.progress).toEqual({
      total: 0,
      sent: 0,
      errors: 0,
      dnd: 0,
      remaining: 0,
      unknown: 0,
    });
  });

  it('refuses Start on a finished campaign until new subscribers are pending, and a Stop leaves it as it is', async () => {
    const id = await create('Enviada');
    await t.database.db.campaign.update({ where: { id }, data: { state: 'completed', desiredState: 'completed', finishedAt: new Date() } });
    await subscribers(id, [{ state: 'sent', delivery: 'delivered' }]);
    const start = () => t.http.post(`/api/v1/campaign/${id}/desired_state`).set(auth()).send({ desired_state: 'running' });
    const refused = await start();
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'campaign_nothing_pending',
      error_message: 'Every subscriber of this campaign has been sent to: add new subscribers to send again',
    });
    const stop = await t.http.post(`/api/v1/campaign/${id}/desired_state`).set(auth()).send({ desired_state: 'stopped' });
    expect(stop.status).toBe(200);
    expect(stop.body.data).toMatchObject({ state: 'completed', desired_state: 'completed' });
    // New subscribers: Start is a new run for them.
    await t.database.db.campaignSubscriber.create({
      data: { tenantId: acme.tenantId, campaignId: id, name: 'Nova', phoneNumber: '+5511955550001', state: 'pending' },
    });
    const started = await start();
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({ state: 'completed', desired_state: 'running', progress: { remaining: 1 } });
    expect((await t.database.db.campaign.findUniqueOrThrow({ where: { id } })).runNumber).toBe(1);
    // Stopped before a worker took the new run: stopped like any run, the new subscriber still pending.
    const stopped = await t.http.post(`/api/v1/campaign/${id}/desired_state`).set(auth()).send({ desired_state: 'stopped' });
    expect(stopped.body.data).toMatchObject({ state: 'stopped', desired_state: 'stopped', progress: { remaining: 1 } });
  });
});

describe('campaign report funnel', () => {
  it('counts sent, delivered, read, replied and failed with their rates, on screen and in the summary export', async () => {
    const id = await create('Funil');
    await subscribers(id, [
      { state: 'sent' },
      { state: 'sent', delivery: 'delivered' },
      { state: 'sent', delivery: 'read' },
      { state: 'completed', delivery: 'sent', replied: true },
      { state: 'error', delivery: 'failed', error: '131026: Message undeliverable' },
      { state: 'error', error: '360dialog answered 400' },
      { state: 'pending' },
      // May have reached the provider; counted apart, not as sent.
      { state: 'unknown', error: '360dialog unreachable: no answer within 10000 ms' },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const query = `start=${today}&end=${today}&campaigns=${id}`;
    const summary = await t.http.get(`/api/v1/reports/campaign/summary?${query}`).set(auth());
    expect(summary.status).toBe(200);
    // Accepted by the provider: 5 (the one that failed after acceptance included, the refused one not).
    const expected = {
      subscribers_count: 8,
      sent_count: 5,
      error_count: 2,
      completed_count: 1,
      delivered_count: 3,
      read_count: 2,
      replied_count: 1,
      failed_count: 1,
      unknown_count: 1,
      delivered_rate: 0.6,
      read_rate: 0.4,
      replied_rate: 0.2,
      failed_rate: 0.2,
    };
    expect(summary.body.data).toMatchObject(expected);
    expect(summary.body.data.campaigns).toEqual([{ uuid: id, name: 'Funil', ...expected }]);
    const rows = await t.http.get(`/api/v1/reports/campaign/subscribers?${query}&state=error`).set(auth());
    expect(rows.body.data.map((r: { delivery: string | null; error_message: string }) => [r.delivery, r.error_message]).sort()).toEqual([
      [null, '360dialog answered 400'],
      ['failed', '131026: Message undeliverable'],
    ]);
    const csv = await t.http.get(`/api/v1/reports/campaign/summary?${query}&_limit=0&format=csv`).set(auth());
    expect(csv.status).toBe(200);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="campaign-summary-.+\.csv"$/);
    const [head, line, total] = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(head).toBe(
      'name,subscribers_count,sent_count,delivered_count,delivered_rate,read_count,read_rate,replied_count,replied_rate,failed_count,failed_rate,error_count,completed_count,unknown_count',
    );
    expect(line).toBe('Funil,8,5,3,0.6,2,0.4,1,0.2,1,0.2,2,1,1');
    expect(total).toBe('Total,8,5,3,0.6,2,0.4,1,0.2,1,0.2,2,1,1');
    const xlsx = await t.http.get(`/api/v1/reports/campaign/summary?${query}&_limit=0&format=excel`).set(auth()).responseType('blob');
    expect((xlsx.body as Buffer).subarray(0, 2).toString()).toBe('PK');
  });
});

describe('sends whose outcome is unknown', () => {
  it('lists them, and resends them only when the manager asks: back to pending, nothing else touched', async () => {
    const id = await create('Incerta');
    await subscribers(id, [
      { state: 'unknown', error: '360dialog unreachable: no answer within 10000 ms' },
      { state: 'unknown', error: 'The sending stopped while this message was on its way: the provider may have received it' },
      { state: 'sent', delivery: 'delivered' },
      { state: 'error', error: '360dialog answered 400' },
    ]);
    const shown = await t.http.get(`/api/v1/campaign/${id}`).set(auth());
    expect(shown.body.data.progress).toEqual({ total: 4, sent: 1, errors: 1, dnd: 0, remaining: 0, unknown: 2 });
    const listed = await t.http.get(`/api/v1/campaign/${id}/subscribers?states=unknown`).set(auth());
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((s: { state: string; error_message: string }) => s.state)).toEqual(['unknown', 'unknown']);

    const resent = await t.http.post(`/api/v1/campaign/${id}/resend_unknown`).set(auth());
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({ data: { resent: 2 } });
    const rows = await t.database.db.campaignSubscriber.findMany({ where: { campaignId: id }, orderBy: { name: 'asc' } });
    expect(rows.map((r) => [r.state, r.errorMessage])).toEqual([
      ['pending', null],
      ['pending', null],
      ['sent', null],
      ['error', '360dialog answered 400'],
    ]);
    // Nothing unknown left: a second call changes nothing.
    expect((await t.http.post(`/api/v1/campaign/${id}/resend_unknown`).set(auth())).body).toEqual({ data: { resent: 0 } });
    // Another tenant's campaign is not found.
    const other = await t.tenant('Outra', { users: { manager: ['campaign_manager'] } });
    const otherToken = await t.login('manager@outra.test');
    const refused = await t.http.post(`/api/v1/campaign/${id}/resend_unknown`).set({ Authorization: `Bearer ${otherToken}` });
    expect([refused.status, refused.body.code]).toEqual([404, 'campaign_not_found']);
    expect(other.tenantId).not.toBe(acme.tenantId);
  });
});
