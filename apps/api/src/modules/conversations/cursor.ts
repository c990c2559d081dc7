import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@atende/contract';

/** The position of the last row of a page in the list's order (createdAt desc, id desc). */
export interface ListPosition {
  createdAt: Date;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INVALID = 'This page link is no longer valid: reload the list from its first page';

/**
 * Opaque keyset cursors for GET /api/v2/conversations. The position is signed together with the
 * workspace, so a cursor cannot be forged, edited, or replayed in another workspace: each of
 * those is a 400 `invalid_cursor` rather than a page from an arbitrary position.
 */
export class CursorCodec {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A key of its own, derived from the server secret, so a cursor is never valid as anything else.
    this.key = createHmac('sha256', secret).update('conversation-list-cursor/v1').digest();
  }

  encode(workspaceId: string, at: ListPosition): string {
    const body = `${at.createdAt.getTime().toString(36)}.${at.id}`;
    return `${body}.${this.mac(workspaceId, body)}`;
  }

  decode(workspaceId: string, cursor: string): ListPosition {
    const parts = cursor.split('.');
    if (parts.length !== 3) throw new AppError('invalid_cursor', INVALID);
    const [time, id, mac] = parts as [string, string, string];
    const body = `${time}.${id}`;
    const expected = Buffer.from(this.mac(workspaceId, body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('invalid_cursor', INVALID);
    const ms = parseInt(time, 36);
    // Signed by us, so these hold; checked anyway so a leaked key cannot turn into a 500.
    if (!/^[0-9a-z]{1,12}$/.test(time) || !Number.isSafeInteger(ms) || !UUID.test(id)) throw new AppError('invalid_cursor', INVALID);
    return { createdAt: new Date(ms), id };
  }

  private mac(workspaceId: string, body: string): string {
    return createHmac('sha256', this.key).update(`${workspaceId}\n${body}`).digest('base64url').slice(0, 22);
  }
}
