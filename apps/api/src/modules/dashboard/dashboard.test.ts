import type { DashboardConversation, DashboardStats, SectorSla } from '@atende/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customChannel } from '../conversations/fixtures';
import { ALL_ON, startTestApp, type TestApp } from '../../testing';

let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;
let other: Awaited<ReturnType<TestApp['tenant']>>;
const tokens: Record<string, string> = {};
const auth = (name: string) => ({ Authorization: `Bearer ${tokens[name]}` });
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);

/** One conversation row with the times a test wants (the dashboard reads the history, so rows are the input). */
async function conversation(
  tenant: typeof acme,
  channelId: string,
  sectorId: string | null,
  fields: {
    state: 'waiting' | 'bot' | 'answered' | 'outbound_started' | 'closed';
    createdAt: Date;
    timeAnswer?: Date;
    closedAt?: Date;
    userId?: number;
    type?: string;
    name?: string;
  },
) {
  const db = t.database.db;
  const contact = await db.contact.create({
    data: { tenantId: tenant.tenantId, name: fields.name ?? 'Contact', phoneNumber: `+55119${Math.floor(Math.random() * 1e8)}` },
  });
  const last = await db.conversation.aggregate({ where: { tenantId: tenant.tenantId }, _max: { ticketNumber: true } });
  return db.conversation.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      contactId: contact.id,
      channelId,
      sectorId,
      state: fields.state,
      type: fields.type ?? 'inbound',
      ticketNumber: (last._max.ticketNumber ?? 0) + 1,
      createdAt: fields.createdAt,
      timeJoin: fields.createdAt,
      timeAnswer: fields.timeAnswer ?? null,
      closedAt: fields.closedAt ?? null,
      userId: fields.userId ?? null,
    },
  });
}

let acmeSla: string;
let acmeOpen: string[];

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Dash', { features: ALL_ON, users: { agent: ['agent'], supervisor: ['supervisor'], admin: ['admin'] } });
  other = await t.tenant('DashOther', { features: ALL_ON, users: { supervisor: ['supervisor'] } });
  for (const name of ['agent', 'supervisor', 'admin']) tokens[name] = await t.login(`${name}@dash.test`);
  tokens.other = await t.login('supervisor@dashother.test');
  const db = t.database.db;
  const sla = await db.sector.create({
    data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'AAA SLA', slaFirstResponseSeconds: 60, slaSessionSeconds: 600 },
  });
  acmeSla = sla.id;
  const { channel } = await customChannel(db, acme.tenantId, acme.workspaceId, sla.id, 'dash-token-0123456789');
  const agentId = acme.users.agent!.id;
  // Open now: two waiting (one past the 60 s first-response SLA), one answered past the 600 s session SLA, one bot, one outbound-started.
  const w1 = await conversation(acme, channel.id, sla.id, { state: 'waiting', createdAt: ago(30), name: 'Fresh' });
  const w2 = await conversation(acme, channel.id, sla.id, { state: 'waiting', createdAt: ago(120), name: 'Late' });
  const a1 = await conversation(acme, channel.id, sla.id, {
    state: 'answered',
    createdAt: ago(900),
    timeAnswer: ago(840),
    userId: agentId,
    name: 'Long',
  });
  const b1 = await conversation(acme, channel.id, null, { state: 'bot', createdAt: ago(10) });
  const o1 = await conversation(acme, channel.id, null, {
    state: 'outbound_started',
    createdAt: ago(5),
    type: 'outbound',
    timeAnswer: ago(5),
    userId: agentId,
  });
  acmeOpen = [w1.id, w2.id, a1.id, b1.id, o1.id];
  // Closed today: answered after 20 s, lasted 100 s; answered after 40 s, lasted 300 s.
  await conversation(acme, channel.id, sla.id, {
    state: 'closed',
    createdAt: ago(400),
    timeAnswer: ago(380),
    closedAt: ago(300),
    userId: agentId,
  });
  await conversation(acme, channel.id, sla.id, {
    state: 'closed',
    createdAt: ago(700),
    timeAnswer: ago(660),
    closedAt: ago(400),
    userId: agentId,
  });
  await db.message.create({
    data: { id: crypto.randomUUID(), tenantId: acme.tenantId, conversationId: w2.id, author: 'CONTACT', content: 'Anyone there?' },
  });
  await db.message.create({
    data: {
      id: crypto.randomUUID(),
      tenantId: acme.tenantId,
      conversationId: w2.id,
      author: 'USER',
      content: 'note',
      internal: true,
      createdAt: new Date(Date.now() + 1000),
    },
  });
  // Another tenant's open conversation never shows.
  const { channel: otherChannel } = await customChannel(
    db,
    other.tenantId,
    other.workspaceId,
    other.sectors[0]!.id,
    'dash-other-0123456789',
  );
  await conversation(other, otherChannel.id, other.sectors[0]!.id, { state: 'waiting', createdAt: ago(15), name: 'Stranger' });
});
afterAll(() => t.close());

describe('admin dashboard', () => {
  it('lists the open conversations newest start first, with contact, agent, sector and last public message', async () => {
    const res = await t.http.get('/api/v1/dashboard/conversations').set(auth('supervisor'));
    expect(res.status).toBe(200);
    const rows = res.body.data as DashboardConversation[];
    expect(res.body.total).toBe(5);
    expect(rows.map((r) => r.uuid)).toEqual([acmeOpen[4], acmeOpen[3], acmeOpen[0], acmeOpen[1], acmeOpen[2]]);
    expect(rows.map((r) => r.state)).toEqual(['outbound-started', 'bot', 'waiting', 'waiting', 'answered']);
    const late = rows.find((r) => r.contact.name === 'Late')!;
    expect(late.sector).toEqual({ uuid: acmeSla, name: 'AAA SLA' });
    expect(late.last_message?.content).toBe('Anyone there?');
    expect(rows.find((r) => r.contact.name === 'Long')!.user?.id).toBe(acme.users.agent!.id);
    expect(rows.some((r) => r.contact.name === 'Stranger')).toBe(false);
  });

  it('filters by state and sector; a bad state or uuid is a 400', async () => {
    const waiting = await t.http.get('/api/v1/dashboard/conversations?state=waiting').set(auth('supervisor'));
    expect((waiting.body.data as DashboardConversation[]).map((r) => r.contact.name).sort()).toEqual(['Fresh', 'Late']);
    const sector = await t.http.get(`/api/v1/dashboard/conversations?sector_uuid=${acmeSla}`).set(auth('supervisor'));
    expect(sector.body.total).toBe(3);
    const bad = await t.http.get('/api/v1/dashboard/conversations?state=closed').set(auth('supervisor'));
    expect(bad.status).toBe(400);
    expect(bad.body.error_message).toBeTruthy();
    expect((await t.http.get('/api/v1/dashboard/conversations?sector_uuid=nope').set(auth('supervisor'))).status).toBe(400);
  });

  it("computes today's stats from the history, as hh:mm:ss", async () => {
    const res = await t.http.get('/api/v1/dashboard/stats?timezone=UTC').set(auth('supervisor'));
    expect(res.status).toBe(200);
    const stats = res.body.data as DashboardStats;
    // Runs just after midnight UTC would see yesterday's rows drop out: only assert what today holds for sure.
    const startOfDay = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00Z');
    if (Date.now() - startOfDay.getTime() > 3_600_000) {
      expect(stats.new_sessions).toBe(7);
      expect(stats.closed_sessions).toBe(2);
      // inbound answered today: 60, 20, 40 s (the outbound one has no first response)
      expect(stats.avg_first_response_time).toEqual({ time: '00:00:40', seconds: 40 });
      expect(stats.avg_session_time).toEqual({ time: '00:03:20', seconds: 200 });
    }
    expect(stats.opened_sessions).toBe(5);
    expect(stats.date).toBe(new Date().toISOString().slice(0, 10));
    const zoned = await t.http.get('/api/v1/dashboard/stats?timezone=Not/AZone').set(auth('supervisor'));
    expect(zoned.status).toBe(200);
    expect(zoned.body.data.timezone).toBe('UTC');
    const others = await t.http.get('/api/v1/dashboard/stats').set(auth('other'));
    expect(others.body.data.opened_sessions).toBe(1);
  });

  it('shows each sector with its SLA breaches for the omnichannel panel', async () => {
    const res = await t.http.get('/api/v1/dashboard/sectors').set(auth('supervisor'));
    expect(res.status).toBe(200);
    const sla = (res.body.data as SectorSla[]).find((s) => s.uuid === acmeSla)!;
    expect(sla).toMatchObject({
      waiting: 2,
      answered: 1,
      first_response_breaches: 1,
      session_breaches: 1,
      sla_first_response_seconds: 60,
      sla_session_seconds: 600,
    });
    expect(sla.oldest_waiting_seconds).toBeGreaterThanOrEqual(119);
    const plain = (res.body.data as SectorSla[]).find((s) => s.uuid === acme.sectors[0]!.id)!;
    expect(plain).toMatchObject({ waiting: 0, first_response_breaches: 0, session_breaches: 0, oldest_waiting_seconds: null });
  });

  it('is for supervisor-level roles; the omnichannel panel needs its flag', async () => {
    const agent = await t.http.get('/api/v1/dashboard/conversations').set(auth('agent'));
    expect(agent.status).toBe(403);
    expect(agent.body.error_message).toBeTruthy();
    expect((await t.http.get('/api/v1/dashboard/stats').set(auth('agent'))).status).toBe(403);
    expect((await t.http.get('/api/v1/dashboard/sectors').set(auth('admin'))).status).toBe(200);
    expect((await t.http.get('/api/v1/dashboard/sectors')).status).toBe(401);
    await t.database.db.tenant.update({
      where: { id: acme.tenantId },
      data: { config: { features: { ...ALL_ON, omnichannel_dashboard: false } } },
    });
    const off = await t.http.get('/api/v1/dashboard/sectors').set(auth('supervisor'));
    expect(off.status).toBe(403);
    expect(off.body.error_message).toBe('Feature not enabled for this tenant');
  });
});
