import { queues, type MaintenanceJob } from '@atende/contract';
import { returnAgentChats, runAutomations, signOffAgent, type ConversationDeps } from '@atende/conversations';
import {
  compactConversationTally,
  deleteSessionsExpiredBefore,
  noLiveSessionWhere,
  pruneDispatchedOutbox,
  signedOffUsersHoldingChats,
  usersWithoutLiveSession,
  type Db,
} from '@atende/db';
import { settleSentCampaigns } from '../campaigns/receipts';
import { startScheduled } from '../campaigns/schedule';
import { reconcileTemplates, type TemplateSyncDeps } from '../templates/processor';

/** Days a dispatched outbox row is kept. */
export const OUTBOX_RETENTION_DAYS = 7;

export interface MaintenanceDeps extends ConversationDeps {
  db: Db;
  sessionRetentionDays: number;
  /** For template reconciliation with the providers. */
  templates: TemplateSyncDeps;
}

/** Periodic housekeeping; every step is idempotent, so a retried or duplicated job is harmless. */
export async function runMaintenanceJob(deps: MaintenanceDeps, raw: unknown): Promise<Record<string, number>> {
  const job: MaintenanceJob = queues.maintenance.payload.parse(raw);
  switch (job.kind) {
    case 'expire-sessions': {
      const cutoff = new Date(Date.now() - deps.sessionRetentionDays * 24 * 3600 * 1000);
      const deletedSessions = await deleteSessionsExpiredBefore(deps.db, cutoff);
      // Users whose every session has expired are no longer logged in: signed off exactly as an api
      // logout does, so their active chats return to the queue with reason logoff.
      const noLiveSession = noLiveSessionWhere();
      const stale = await usersWithoutLiveSession(deps.db, noLiveSession);
      let loggedOffUsers = 0;
      let returnedConversations = 0;
      for (const u of stale) {
        // Checked again in the update: a user who signed in since the lookup stays logged in.
        const done = await signOffAgent(deps, u.tenantId, u.id, 'system', noLiveSession);
        if (done.signedOff) loggedOffUsers++;
        returnedConversations += done.returnedConversations;
      }
      // A run that died between signing a user off and returning their chats left them held by a
      // user who is not logged in: the retry (or the next run) returns them.
      const stranded = await signedOffUsersHoldingChats(deps.db);
      for (const u of stranded) returnedConversations += await returnAgentChats(deps, u.tenantId, u.id, 'logoff');
      return { deletedSessions, loggedOffUsers, returnedConversations };
    }
    case 'prune-outbox': {
      // Dispatched rows are only kept for investigation; undispatched ones are never touched.
      const cutoff = new Date(Date.now() - OUTBOX_RETENTION_DAYS * 24 * 3600 * 1000);
      return { deletedOutboxRows: await pruneDispatchedOutbox(deps.db, cutoff) };
    }
    case 'compact-conversation-tally': {
      const folded = await compactConversationTally(deps.db);
      return { tallyKeys: folded.keys, tallyRows: folded.rows };
    }
    case 'sync-templates':
      return reconcileTemplates(deps.templates);
    case 'start-scheduled':
      // Finished campaigns awaiting receipts are settled on the same beat.
      return { ...(await startScheduled(deps)), ...(await settleSentCampaigns(deps)) };
    case 'run-automations':
      return runAutomations(deps);
  }
}
