import pg from 'pg';
import type { Logger } from 'pino';

/** Channel notified by the OutboxJob insert trigger (migration 20261122020000_outbox_notify). */
export const OUTBOX_NOTIFY_CHANNEL = 'atende_outbox';

export interface OutboxListener {
  close(): Promise<void>;
}

/**
 * LISTENs for new outbox rows on a dedicated connection and calls `onNotify` at each commit that
 * wrote some. Reconnects after a lost connection; polling covers the gap meanwhile.
 */
export function listenForOutboxRows(databaseUrl: string, onNotify: () => void, log: Logger, reconnectMs = 2_000): OutboxListener {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'atende-worker-outbox' });
    c.on('notification', (n) => {
      if (n.channel === OUTBOX_NOTIFY_CHANNEL) onNotify();
    });
    c.on('error', (err) => {
      log.warn({ err }, 'outbox listener connection lost; polling until it is back');
      retry(c);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${OUTBOX_NOTIFY_CHANNEL}`);
      if (closed) {
        await c.end();
        return;
      }
      client = c;
      // Rows committed while we were not listening are picked up now rather than at the next poll.
      onNotify();
    } catch (err) {
      log.warn({ err }, 'outbox listener could not connect; polling until it can');
      retry(c);
    }
  };
  const retry = (c: pg.Client) => {
    if (client === c) client = null;
    c.end().catch(() => undefined);
    if (!closed && !timer) {
      timer = setTimeout(() => {
        timer = undefined;
        void connect();
      }, reconnectMs);
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
