import { createHash } from 'node:crypto';
import type { Db } from '@atende/db';
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

/** A contact writes through the custom channel. */
export function inbound(
  t: TestApp,
  channelId: string,
  token: string,
  body: { phone?: string; identifier?: string; name?: string; id?: string; content?: string },
) {
  return t.http
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
}
