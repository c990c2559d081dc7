import { randomUUID } from 'node:crypto';
import { rooms } from '@atende/contract';
import { ensureTenant } from '@atende/db';
import { createTestDatabase, type TestDatabase } from '@atende/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announce, conversationAudience, Effects } from './engine';
import { presentMessage } from './present';

// One broadcast per audience: the api's socket.io adapter writes one Redis stream entry per emit and
// awaits it before delivering, so a message for a conversation's live view and its agent is one emit
// to both rooms, not one per room.
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe('announce', () => {
  it("emits a new message once, to the conversation's live view and its agent together, and the waiting count from the kept count", async () => {
    const tenant = await ensureTenant(t.db, {
      name: 'Announce',
      users: { agent: ['agent'] },
      emailDomain: 'announce.test',
      password: 'x1234567',
    });
    const agent = tenant.users.agent!;
    const contact = await t.db.contact.create({ data: { tenantId: tenant.tenantId, name: 'C', phoneNumber: '+5511999990000' } });
    const channel = await t.db.channel.create({
      data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: 'API', type: 'custom' },
    });
    const base = { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, contactId: contact.id, channelId: channel.id };
    const held = await t.db.conversation.create({ data: { ...base, userId: agent.id, state: 'answered', ticketNumber: 1 } });
    const waiting = await t.db.conversation.create({ data: { ...base, state: 'waiting', ticketNumber: 2 } });
    const message = (conversationId: string) =>
      t.db.message.create({
        data: {
          id: randomUUID(),
          tenantId: tenant.tenantId,
          conversationId,
          author: 'CONTACT',
          contactId: contact.id,
          content: 'Oi',
          tags: [],
        },
      });
    const effects = new Effects();
    effects.messages.push({
      tenantId: tenant.tenantId,
      conversationId: held.id,
      holderUuid: agent.uuid,
      message: presentMessage(await message(held.id)),
    });
    effects.messages.push({
      tenantId: tenant.tenantId,
      conversationId: waiting.id,
      holderUuid: null,
      message: presentMessage(await message(waiting.id)),
    });
    effects.queues.set(tenant.workspaceId, tenant.tenantId);
    const calls: { room: string | string[]; event: string; payload: unknown }[] = [];
    await announce(
      {
        db: t.db,
        realtime: { emit: (room, event, payload) => void calls.push({ room, event, payload }) },
        log: { error: () => undefined },
      },
      effects,
    );
    expect(calls.map(({ room, event }) => ({ room, event }))).toEqual([
      { room: [rooms.conversation(tenant.tenantId, held.id), rooms.user(agent.uuid)], event: 'new-message' },
      { room: [rooms.conversation(tenant.tenantId, waiting.id)], event: 'new-message' },
      { room: rooms.tenant(tenant.tenantId), event: 'waiting-queue' },
    ]);
    expect(calls[2]!.payload).toEqual({ tenant_uuid: tenant.tenantId, quantity_waiting_queue: 1 });
    expect(conversationAudience(tenant.tenantId, held.id, agent.uuid)).toEqual([
      rooms.conversation(tenant.tenantId, held.id),
      rooms.user(agent.uuid),
      rooms.metrics(tenant.tenantId),
    ]);
  });
});
