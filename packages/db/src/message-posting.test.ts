import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTenant, type CreatedTenant } from './fixtures';
import { markMessageFailed, storeDeliveryStatus } from './message-posting';
import { createTestDatabase, type TestDatabase } from './testing';

// A message's delivery news and its failure are merged into its interactive part in one statement each:
// what another receipt wrote meanwhile is kept, and news never moves the message backwards.

let t: TestDatabase;
let acme: CreatedTenant;
let other: CreatedTenant;
let conversationId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  acme = await ensureTenant(t.db, { name: 'Posting', users: { agent: ['agent'] }, emailDomain: 'posting.test', password: 'x1234567' });
  other = await ensureTenant(t.db, { name: 'Other', users: { agent: ['agent'] }, emailDomain: 'other-posting.test', password: 'x1234567' });
  const channel = await t.db.channel.create({
    data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, name: 'API', type: 'custom' },
  });
  const contact = await t.db.contact.create({ data: { tenantId: acme.tenantId, name: 'Ana', phoneNumber: '+5511900000001' } });
  const conversation = await t.db.conversation.create({
    data: { tenantId: acme.tenantId, workspaceId: acme.workspaceId, channelId: channel.id, contactId: contact.id, ticketNumber: 1 },
  });
  conversationId = conversation.id;
});
afterAll(() => t?.drop());

const message = (interactiveContent?: object) =>
  t.db.message.create({
    data: {
      id: randomUUID(),
      tenantId: acme.tenantId,
      conversationId,
      author: 'USER',
      tags: [],
      content: 'Olá',
      state: 'pending',
      ...(interactiveContent ? { interactiveContent } : {}),
    },
  });

describe('delivery news and failures of our messages', () => {
  it('moves a message forward only, keeping what its interactive part held', async () => {
    const m = await message({ buttons: ['Sim'] });
    expect(await storeDeliveryStatus(t.db, acme.tenantId, m.id, 'read')).toBe(true);
    expect(await storeDeliveryStatus(t.db, acme.tenantId, m.id, 'delivered')).toBe(false);
    expect(await storeDeliveryStatus(t.db, acme.tenantId, m.id, 'read')).toBe(false);
    const stored = await t.db.message.findUniqueOrThrow({ where: { id: m.id } });
    expect(stored.state).toBe('read');
    expect(stored.interactiveContent).toEqual({ buttons: ['Sim'], delivery: 'read' });
  });

  it('two receipts handled at once leave the furthest one', async () => {
    const m = await message();
    const results = await Promise.all(
      (['sent', 'delivered', 'read', 'delivered', 'sent'] as const).map((d) => storeDeliveryStatus(t.db, acme.tenantId, m.id, d)),
    );
    expect(results.some(Boolean)).toBe(true);
    expect((await t.db.message.findUniqueOrThrow({ where: { id: m.id } })).interactiveContent).toEqual({ delivery: 'read' });
  });

  it('a failure keeps the receipts already written and says whether it is final', async () => {
    const m = await message({ delivery: 'sent' });
    await t.db.message.update({ where: { id: m.id }, data: { state: 'pending' } });
    await markMessageFailed(t.db, acme.tenantId, m.id, 'refused', { permanent: true });
    const stored = await t.db.message.findUniqueOrThrow({ where: { id: m.id } });
    expect(stored).toMatchObject({
      status: 'failed',
      errorMessage: 'refused',
      interactiveContent: { delivery: 'sent', failure: { permanent: true } },
    });
  });

  it("changes nothing of another tenant's message", async () => {
    const m = await message();
    expect(await storeDeliveryStatus(t.db, other.tenantId, m.id, 'read')).toBe(false);
    await markMessageFailed(t.db, other.tenantId, m.id, 'no');
    expect(await t.db.message.findUniqueOrThrow({ where: { id: m.id } })).toMatchObject({
      state: 'pending',
      status: null,
      interactiveContent: null,
    });
  });
});
