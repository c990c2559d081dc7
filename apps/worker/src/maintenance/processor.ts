import { queues, type MaintenanceJob } from '@atende/contract';
import type { Db } from '@atende/db';

/** Days a dispatched outbox row is kept. */
export const OUTBOX_RETENTION_DAYS = 7;

export interface MaintenanceDeps {
  db: Db;
  sessionRetentionDays: number;
}

/** Periodic housekeeping; every step is idempotent, so a retried or duplicated job is harmless. */
export async function runMaintenanceJob(deps: MaintenanceDeps, raw: unknown): Promise<Record<string, number>> {
  const job: MaintenanceJob = queues.maintenance.payload.parse(raw);
  switch (job.kind) {
    case 'expire-sessions': {
      const cutoff = new Date(Date.now() - deps.sessionRetentionDays * 24 * 3600 * 1000);
      const deleted = await deps.db.userSession.deleteMany({ where: { expiresAt: { lt: cutoff } } });
      // Users whose every session has expired are no longer logged in.
      const stale = await deps.db.user.findMany({
        where: { isLogged: true, sessions: { none: { revokedAt: null, expiresAt: { gt: new Date() } } } },
        select: { id: true, uuid: true, tenantId: true },
        take: 1000,
      });
      for (const u of stale) {
        await deps.db.user.update({ where: { id: u.id }, data: { isLogged: false, state: 'offline', loggedOffBy: 'system' } });
      }
      return { deletedSessions: deleted.count, loggedOffUsers: stale.length };
    }
    case 'prune-outbox': {
      // Dispatched rows are only kept for investigation; undispatched ones are never touched.
      const cutoff = new Date(Date.now() - OUTBOX_RETENTION_DAYS * 24 * 3600 * 1000);
      const deleted = await deps.db.outboxJob.deleteMany({ where: { dispatchedAt: { lt: cutoff } } });
      return { deletedOutboxRows: deleted.count };
    }
  }
}
