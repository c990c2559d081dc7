import { encryptCredentials } from '@atende/channels';
import { parseSecretsKey, readSharedSettings } from '@atende/config';
import { createHash, randomUUID } from 'node:crypto';
import type { Db, CreatedTenant } from '@atende/db';
import { seedDemoLivechat } from './demo-livechat';
import { seedDemoTelegram } from './demo-telegram';
import { seedDemoSms } from './demo-sms';
import { seedDemoMeta } from './demo-meta';
import { seedDemoEmail } from './demo-email';
import { seedDemoWhatsApp } from './demo-whatsapp';

/** Token of the demo tenant's custom API channel (docs/channels.md, Custom API channel). */
export const DEMO_CHANNEL_TOKEN = 'demo-api-channel-token';

/**
 * Where the demo channel delivers agent replies: the demo contact system that `pnpm start` runs
 * (packages/simulators/src/custom/demo-receiver.ts), signed with its secret.
 */
function demoDelivery(): { config: { webhook_url: string }; credentialsEncrypted: string } {
  const url = process.env.DEMO_WEBHOOK_URL ?? `http://127.0.0.1:${process.env.DEMO_WEBHOOK_PORT ?? 4010}/webhook`;
  const secret = process.env.DEMO_WEBHOOK_SECRET ?? 'demo-webhook-secret';
  const key = parseSecretsKey(readSharedSettings(['CHANNEL_SECRETS_KEY'], process.env).CHANNEL_SECRETS_KEY);
  return { config: { webhook_url: url }, credentialsEncrypted: encryptCredentials({ webhook_secret: secret }, key) };
}

const CONTACTS = [
  { name: 'Maria Silva', phone: '+5511987650001', organization: 'Padaria Silva', text: 'Olá! Meu pedido ainda não chegou.' },
  { name: 'João Souza', phone: '+5511987650002', organization: 'Souza Transportes', text: 'Preciso da segunda via do boleto.' },
  { name: 'Ana Costa', phone: '+5521987650003', organization: 'Costa & Filhos', text: 'Vocês atendem no sábado?' },
  { name: 'Pedro Lima', phone: '+5531987650004', organization: 'Lima Tech', text: 'Quero mudar meu plano.' },
];

/**
 * Demo conversation data: a custom API channel entering the Support queue, agents in sectors,
 * finish reasons, and a few contacts with waiting conversations. Idempotent.
 */
export async function seedDemoConversations(db: Db, tenant: CreatedTenant): Promise<{ channelId: string }> {
  const support = tenant.sectors.find((s) => s.name === 'Support') ?? tenant.sectors[0];
  const existing = await db.channel.findFirst({ where: { tenantId: tenant.tenantId, name: 'API', type: 'custom' } });
  // Re-seeding points the channel at this run's demo contact system (its port and key may differ).
  const delivery = demoDelivery();
  const channel = existing
    ? await db.channel.update({ where: { id: existing.id }, data: delivery })
    : await db.channel.create({
        data: {
          tenantId: tenant.tenantId,
          workspaceId: tenant.workspaceId,
          name: 'API',
          type: 'custom',
          entrySectorId: support?.id ?? null,
          inboundTokenHash: createHash('sha256').update(DEMO_CHANNEL_TOKEN).digest('hex'),
          ...delivery,
        },
      });
  for (const local of ['agent', 'agent2']) {
    const user = tenant.users[local];
    if (!user) continue;
    for (const sector of tenant.sectors) {
      await db.userSector.upsert({
        where: { userId_sectorId: { userId: user.id, sectorId: sector.id } },
        create: { userId: user.id, sectorId: sector.id, tenantId: tenant.tenantId },
        update: {},
      });
    }
  }
  for (const name of ['Solved', 'Customer gave up', 'Forwarded to sales', 'Spam']) {
    if (!(await db.conversationReason.findFirst({ where: { tenantId: tenant.tenantId, name } }))) {
      await db.conversationReason.create({ data: { tenantId: tenant.tenantId, name } });
    }
  }
  await seedDemoCannedResponses(db, tenant);
  await seedDemoWhatsApp(db, tenant, support?.id ?? null);
  await seedDemoTelegram(db, tenant, support?.id ?? null);
  await seedDemoSms(db, tenant, support?.id ?? null);
  await seedDemoMeta(db, tenant, support?.id ?? null);
  await seedDemoEmail(db, tenant, support?.id ?? null);
  await seedDemoLivechat(db, tenant, support?.id ?? null);
  if ((await db.conversation.count({ where: { tenantId: tenant.tenantId } })) === 0) {
    for (const [i, c] of CONTACTS.entries()) {
      const contact = await db.contact.create({
        data: { tenantId: tenant.tenantId, name: c.name, phoneNumber: c.phone, organization: c.organization },
      });
      await db.contactIdentity.create({
        data: { tenantId: tenant.tenantId, channelId: channel.id, identifier: c.phone, contactId: contact.id },
      });
      const counter = await db.tenant.update({
        where: { id: tenant.tenantId },
        data: { ticketCounter: { increment: 1 } },
        select: { ticketCounter: true },
      });
      const ticketCounter = counter.ticketCounter;
      const when = new Date(Date.now() - (CONTACTS.length - i) * 4 * 60_000);
      const conv = await db.conversation.create({
        data: {
          tenantId: tenant.tenantId,
          workspaceId: tenant.workspaceId,
          contactId: contact.id,
          channelId: channel.id,
          sectorId: support?.id ?? null,
          state: 'waiting',
          ticketNumber: ticketCounter,
          unreadContactMessages: 1,
          contactInteracted: true,
          lastMessageAt: when,
          timeJoin: when,
          createdAt: when,
        },
      });
      await db.conversationEvent.create({
        data: { tenantId: tenant.tenantId, conversationId: conv.id, type: 'enter-queue', detail: { event: 'new-conversation' }, at: when },
      });
      await db.message.create({
        data: {
          id: randomUUID(),
          tenantId: tenant.tenantId,
          conversationId: conv.id,
          author: 'CONTACT',
          contactId: contact.id,
          content: c.text,
          tags: [],
          state: 'sent',
          createdAt: when,
        },
      });
    }
  }
  return { channelId: channel.id };
}

const CANNED = [
  { category: 'Greetings', keyword: 'hello', message: 'Olá! Meu nome é {{user_name}}, da {{workspace_name}}. Como posso ajudar?' },
  { category: 'Greetings', keyword: 'bye', message: 'Obrigado pelo contato! Qualquer dúvida, estamos à disposição.' },
  {
    category: 'Orders',
    keyword: 'tracking',
    message: 'Seu pedido já foi despachado. Você pode acompanhar a entrega pelo código de rastreio enviado por e-mail.',
  },
  { category: 'Billing', keyword: 'invoice', message: 'Vou gerar a segunda via do seu boleto e envio aqui em instantes.' },
];

/** A few canned responses (type /hello in the composer), every sector. Idempotent by keyword. */
async function seedDemoCannedResponses(db: Db, tenant: CreatedTenant): Promise<void> {
  for (const c of CANNED) {
    if (await db.cannedResponse.findFirst({ where: { tenantId: tenant.tenantId, keyword: c.keyword, deletedAt: null } })) continue;
    const category =
      (await db.cannedResponseCategory.findFirst({ where: { tenantId: tenant.tenantId, name: c.category, deletedAt: null } })) ??
      (await db.cannedResponseCategory.create({ data: { tenantId: tenant.tenantId, workspaceId: tenant.workspaceId, name: c.category } }));
    await db.cannedResponse.create({
      data: {
        tenantId: tenant.tenantId,
        workspaceId: tenant.workspaceId,
        keyword: c.keyword,
        message: c.message,
        categoryId: category.id,
        sectorIds: [],
      },
    });
  }
}
