import { createHash } from 'node:crypto';
import { queues } from '@atende/contract';
import { InboundReceiver, receiveQueuedChannelMessage, type InboundResult } from '@atende/conversations';
import { providerChannelRow, type Db } from '@atende/db';
import type { TestApp } from '../../testing';

/** A custom API channel with a known inbound token, for tests. */
export async function customChannel(
  db: Db,
  tenantId: string,
  workspaceId: string,
  sectorId: string | null,
  token = 'channel-token-0123456789',
) {
  const channel = await db.channel.create({
    data: {
      tenantId,
      workspaceId,
      name: 'API',
      type: 'custom',
      entrySectorId: sectorId,
      inboundTokenHash: createHash('sha256').update(token).digest('hex'),
      config: { webhook_url: 'http://127.0.0.1:9/hook' },
    },
  });
  return { channel, token };
}

/**
 * Stores the custom channel messages the api queued for this channel, as the worker's channel-inbound
 * processor does (the same receiveQueuedChannelMessage), in the order they were accepted; the jobs
 * are then marked dispatched. Answers what each stored.
 */
export async function storeQueuedInbound(t: TestApp, channelId: string): Promise<InboundResult[]> {
  const db = t.database.db;
  const jobs = await db.outboxJob.findMany({
    where: { queue: queues.channelInbound.name, dispatchedAt: null, payload: { path: ['channel_uuid'], equals: channelId } },
    orderBy: { createdAt: 'asc' },
  });
  const receiver = new InboundReceiver(t.ctx);
  const results: InboundResult[] = [];
  for (const row of jobs) {
    const job = queues.channelInbound.payload.parse(row.payload);
    const channel = await providerChannelRow(db, job.tenant_uuid, job.channel_uuid);
    if (!channel) throw new Error(`queued message for a missing channel ${job.channel_uuid}`);
    const result = await receiveQueuedChannelMessage(receiver, channel, job.raw_body, new Date(job.received_at));
    if (!result) throw new Error('queued custom channel message not understood');
    results.push(result);
    await db.outboxJob.update({ where: { id: row.id }, data: { dispatchedAt: new Date() } });
  }
  return results;
}

/**
 * A contact writes through the custom channel: the api's answer (202 with the message's uuid), and
 * once the queued message is stored (storeQueuedInbound), what storing it found: its conversation
 * and whether it was a repeat of a message already stored.
 */
export async function inbound(
  t: TestApp,
  channelId: string,
  token: string,
  body: { phone?: string; identifier?: string; name?: string; id?: string; content?: string },
) {
  const res = await t.http
    .post(`/api/v1/channels/droz/${channelId}/messages`)
    .set('Authorization', `Bearer ${token}`)
    .send({
      contact: {
        ...(body.phone ? { phone: body.phone } : {}),
        ...(body.identifier ? { identifier: body.identifier } : {}),
        name: body.name ?? 'Contact',
      },
      message: { ...(body.id ? { id: body.id } : {}), content: body.content ?? 'Hello' },
    });
  if (res.status !== 202) return res;
  const stored = (await storeQueuedInbound(t, channelId)).find((r) => r.message_uuid === res.body.data.message_uuid);
  if (!stored) throw new Error('the accepted message was not queued');
  res.body = { data: stored };
  return res;
}
