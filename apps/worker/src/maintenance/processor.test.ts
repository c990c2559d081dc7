import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RealtimeEnvelopeSchema, rooms, type RealtimeEnvelope } from '@atende/contract';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { RealtimeOutbox, realtimeOutboxStream } from '@atende/queue';
import { Redis } from 'ioredis';
import pino from 'pino';
import { runMaintenanceJob, type MaintenanceDeps } from './processor';

const prefix = `atende-test:${randomBytes(4).toString('hex')}:`;
let t: TestDatabase;
let redis: Redis;
let deps: MaintenanceDeps;
beforeAll(async () => {
  t = await createTestDatabase();
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
  const realtime = new RealtimeOutbox(redis, prefix);
  const log = pino({ level: 'silent' });
  deps = {
    db: t.db,
    realtime,
    log,
    sessionRetentionDays: 30,
    templates: { db: t.db, realtime, log, adapters: new Map(), secretsKey: Buffer.alloc(32) },
  };
});
afterAll(async () => {
  await redis?.del(realtimeOutboxStream(prefix));
  redis?.disconnect();
  await t?.drop();
});

/** The events the worker appended for the api's relay, in order. */
async function emitted(): Promise<RealtimeEnvelope[]> {
  const entries = await redis.xrange(realtimeOutboxStream(prefix), '-', '+');
  return entries.map(([, fields]) => RealtimeEnvelopeSchema.parse(JSON.parse(fields[1]!)));
}

const day = 24 * 3600 * 1000;

/** An inbound conversation answered by `userId`, as after an accept. */
async function answeredConversation(tenant: { tenantId: string; workspaceId: string }, userId: number) {
  const contact = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'Contact', phoneNumber: '+5511999990000' } });
  const channel = await t.db.channel.create({
    data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'API', type: 'custom' },
  });
  const last = await t.db.conversation.aggregate({ where: { tenantId: tenant.tenantId }, _max: { ticketNumber: true } });
  return t.db.conversation.create({
    data: {
      tenantId: tenant.tenantId,
      workspaceId: tenant.workspaceId,
      contactId: contact.id,
      channelId: channel.id,
      userId,
      state: 'answered',
      contactInteracted: true,
      ticketNumber: (last._max.ticketNumber ?? 0) + 1,
      timeAnswer: new Date(),
      events: { create: { tenantId: tenant.tenantId, type: 'answered', detail: {} } },
    },
  });
}

describe('maintenance: expire-sessions', () => {
  it('deletes sessions expired past the retention and logs off users left with no live session', async () => {
    const tenant = await ensureTenant(t.db, {
      name: 'M',
      users: { a: ['agent'], b: ['agent'] },
      emailDomain: 'm.test',
      password: 'x1234567',
    });
    const a = tenant.users.a!;
    const b = tenant.users.b!;
    await t.db.user.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { isLogged: true, state: 'online' } });
    await t.db.userSession.createMany({
      data: [
        { tenantId: tenant.tenantId, userId: a.id, roles: ['agent'], expiresAt: new Date(Date.now() - 40 * day) },
        { tenantId: tenant.tenantId, userId: a.id, roles: ['agent'], expiresAt: new Date(Date.now() - day) },
        { tenantId: tenant.tenantId, userId: b.id, roles: ['agent'], expiresAt: new Date(Date.now() + day) },
      ],
    });
    const result = await runMaintenanceJob(deps, { kind: 'expire-sessions' });
    expect(result).toEqual({ deletedSessions: 1, loggedOffUsers: 1, returnedConversations: 0 });
    expect(await t.db.userSession.count({ where: { userId: a.id } })).toBe(1);
    expect(await t.db.user.findUniqueOrThrow({ where: { id: a.id } })).toMatchObject({
      isLogged: false,
      state: 'offline',
      loggedOffBy: 'system',
    });
    expect(await t.db.user.findUniqueOrThrow({ where: { id: b.id } })).toMatchObject({ isLogged: true });
    // Running it again changes nothing more.
    expect(await runMaintenanceJob(deps, { kind: 'expire-sessions' })).toEqual({
      deletedSessions: 0,
      loggedOffUsers: 0,
      returnedConversations: 0,
    });
  });

  // Logout returns the agent's active chats to the queue; sessions that all expired are a logout.
  it('returns the active chats of an agent whose sessions all expired to the queue, as an api logout does', async () => {
    const tenant = await ensureTenant(t.db, {
      name: 'Expired chats',
      users: { holder: ['agent'] },
      emailDomain: 'expired.test',
      password: 'x1234567',
    });
    const holder = tenant.users.holder!;
    const conv = await answeredConversation(tenant, holder.id);
    await t.db.user.update({ where: { id: holder.id }, data: { isLogged: true, state: 'online' } });
    await t.db.userSession.create({
      data: { tenantId: tenant.tenantId, userId: holder.id, roles: ['agent'], expiresAt: new Date(Date.now() - 1000) },
    });

    const result = await runMaintenanceJob(deps, { kind: 'expire-sessions' });
    expect(result).toMatchObject({ loggedOffUsers: 1, returnedConversations: 1 });

    const after = await t.db.conversation.findUniqueOrThrow({ where: { id: conv.id }, include: { events: { orderBy: { at: 'asc' } } } });
    expect(after).toMatchObject({ state: 'waiting', userId: null });
    expect(after.events.at(-1)).toMatchObject({ type: 'enter-queue', detail: { event: 'logoff' } });
    expect(await t.db.user.findUniqueOrThrow({ where: { id: holder.id } })).toMatchObject({
      isLogged: false,
      state: 'offline',
      loggedOffBy: 'system',
    });

    const events = (await emitted()).filter((e) => (e.payload as { tenant_uuid: string }).tenant_uuid === tenant.tenantId);
    const to = (room: string, event: string) =>
      events.filter((e) => e.room === room && e.event === event).map((e) => e.payload as Record<string, never>);
    // The agent's browsers hear they are signed off and that the chat left them; the dashboards hear both.
    expect(to(rooms.user(holder.uuid), 'update-user')).toEqual([
      expect.objectContaining({ user: expect.objectContaining({ is_logged: false, state: 'offline', logged_off_by: 'system' }) }),
    ]);
    expect(to(rooms.user(holder.uuid), 'update-conversation')).toEqual([
      expect.objectContaining({ conversation: expect.objectContaining({ uuid: conv.id, state: 'waiting', user: null }) }),
    ]);
    expect(to(rooms.metrics(tenant.tenantId), 'update-conversation')).toHaveLength(1);
    expect(to(rooms.metrics(tenant.tenantId), 'update-user')).toHaveLength(1);
    // Every agent of the tenant sees the queue grow.
    expect(to(rooms.tenant(tenant.tenantId), 'waiting-queue')).toEqual([{ tenant_uuid: tenant.tenantId, quantity_waiting_queue: 1 }]);
    const history = after.events.at(-1)!;
    expect(to(rooms.metrics(tenant.tenantId), 'update-conversation')[0]).toMatchObject({
      conversation: {
        history: expect.arrayContaining([
          expect.objectContaining({
            uuid: history.id,
            event: 'enter-queue',
            detail: expect.objectContaining({ event: 'logoff', old_user: expect.objectContaining({ id: holder.id }) }),
          }),
        ]),
      },
    });

    // A second run finds nothing more to do.
    expect(await runMaintenanceJob(deps, { kind: 'expire-sessions' })).toMatchObject({ loggedOffUsers: 0, returnedConversations: 0 });
  });

  it('hands the returned chats to an online colleague when distribution is round_robin', async () => {
    const tenant = await ensureTenant(t.db, {
      name: 'Expired round robin',
      users: { gone: ['agent'], here: ['agent'] },
      emailDomain: 'rr.test',
      password: 'x1234567',
    });
    await t.db.workspace.update({ where: { id: tenant.workspaceId }, data: { conversationDeliveryMode: 'round_robin' } });
    const gone = tenant.users.gone!;
    const here = tenant.users.here!;
    const conv = await answeredConversation(tenant, gone.id);
    await t.db.user.updateMany({ where: { id: { in: [gone.id, here.id] } }, data: { isLogged: true, state: 'online' } });
    await t.db.userSession.createMany({
      data: [
        { tenantId: tenant.tenantId, userId: gone.id, roles: ['agent'], expiresAt: new Date(Date.now() - 1000) },
        { tenantId: tenant.tenantId, userId: here.id, roles: ['agent'], expiresAt: new Date(Date.now() + day) },
      ],
    });
    expect(await runMaintenanceJob(deps, { kind: 'expire-sessions' })).toMatchObject({ loggedOffUsers: 1, returnedConversations: 1 });
    const after = await t.db.conversation.findUniqueOrThrow({ where: { id: conv.id }, include: { events: { orderBy: { at: 'asc' } } } });
    expect(after).toMatchObject({ state: 'answered', userId: here.id });
    expect(after.events.map((e) => e.type)).toEqual(expect.arrayContaining(['enter-queue', 'offered', 'associate-user']));
    const newHolder = (await emitted()).filter((e) => e.room === rooms.user(here.uuid) && e.event === 'update-conversation');
    expect(newHolder.at(-1)?.payload).toMatchObject({ conversation: { uuid: conv.id, state: 'answered', user: { uuid: here.uuid } } });
  });

  it('returns the chats a crashed run left with a signed-off agent', async () => {
    const tenant = await ensureTenant(t.db, {
      name: 'Stranded',
      users: { left: ['agent'] },
      emailDomain: 'stranded.test',
      password: 'x1234567',
    });
    const conv = await answeredConversation(tenant, tenant.users.left!.id);
    await t.db.user.update({ where: { id: tenant.users.left!.id }, data: { isLogged: false, state: 'offline' } });
    expect(await runMaintenanceJob(deps, { kind: 'expire-sessions' })).toMatchObject({ returnedConversations: 1 });
    expect(await t.db.conversation.findUniqueOrThrow({ where: { id: conv.id } })).toMatchObject({ state: 'waiting', userId: null });
  });

  it('prunes outbox rows dispatched more than a week ago and never undispatched ones', async () => {
    const tenant = await t.db.tenant.findFirstOrThrow();
    await t.db.outboxJob.createMany({
      data: [
        { tenantId: tenant.id, queue: 'q', payload: {}, dispatchedAt: new Date(Date.now() - 8 * day) },
        { tenantId: tenant.id, queue: 'q', payload: {}, dispatchedAt: new Date(Date.now() - day) },
        { tenantId: tenant.id, queue: 'q', payload: {}, createdAt: new Date(Date.now() - 30 * day) },
      ],
    });
    expect(await runMaintenanceJob(deps, { kind: 'prune-outbox' })).toEqual({ deletedOutboxRows: 1 });
    expect(await t.db.outboxJob.count()).toBe(2);
    expect(await t.db.outboxJob.count({ where: { dispatchedAt: null } })).toBe(1);
  });

  it("folds the conversation list's kept count, one row per key, without changing it", async () => {
    const tenant = await ensureTenant(t.db, {
      name: 'Tally',
      users: { tally: ['agent'] },
      emailDomain: 'tally.test',
      password: 'x1234567',
    });
    const agent = tenant.users.tally!.id;
    const conv = await answeredConversation(tenant, agent);
    await t.db.conversation.update({ where: { id: conv.id }, data: { state: 'closed' } });
    await t.db.conversation.update({ where: { id: conv.id }, data: { archived: true } });
    const kept = () =>
      t.db.conversationTally.groupBy({
        by: ['state', 'archived'],
        where: { tenantId: tenant.tenantId },
        _sum: { n: true },
        _count: { _all: true },
      });
    expect((await kept()).filter((k) => k._sum.n !== 0).map((k) => [k.state, k.archived, k._sum.n])).toEqual([['closed', true, 1]]);
    const folded = await runMaintenanceJob(deps, { kind: 'compact-conversation-tally' });
    expect(folded.tallyRows).toBeGreaterThan(folded.tallyKeys!);
    expect((await kept()).map((k) => [k.state, k.archived, k._sum.n, k._count._all])).toEqual([['closed', true, 1, 1]]);
    expect(await runMaintenanceJob(deps, { kind: 'compact-conversation-tally' })).toEqual({ tallyKeys: 0, tallyRows: 0 });
  });

  it('rejects a malformed job payload', async () => {
    await expect(runMaintenanceJob(deps, { kind: 'nope' })).rejects.toThrow();
  });
});
