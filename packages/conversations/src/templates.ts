import {
  rooms,
  TEMPLATE_STATUSES,
  TemplateComponentSchema,
  type Template,
  type TemplateCategory,
  type TemplateStatus,
} from '@atende/contract';
import { storeProviderStatus, templateForProviderReport, templateInclude, type Db, type TemplateRow } from '@atende/db';
import type { ConversationDeps } from './deps';

/**
 * Outbound templates as the api answers them and as the live 'update-template' event carries them,
 * and the status changes providers report (webhook or reconciliation), shared by api and worker.
 */
export { templateInclude, type TemplateRow };

const storedComponents = TemplateComponentSchema.array().catch([]);
const upper = (status: string): TemplateStatus => {
  const s = status.toUpperCase();
  return (TEMPLATE_STATUSES as readonly string[]).includes(s) ? (s as TemplateStatus) : 'PENDING';
};

export function presentTemplate(row: TemplateRow): Template {
  return {
    uuid: row.id,
    name: row.name,
    channel: { uuid: row.channel.id, name: row.channel.name, type: row.channel.type },
    config: {
      category: row.category as TemplateCategory,
      language: row.language,
      // The status is upper-cased on read, whatever a provider stored.
      status: upper(row.status),
      components: storedComponents.parse(row.components),
      rejected_reason: row.rejectedReason,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Tells the tenant's open template lists (room campaigns_{tenant}) that a template changed. */
export async function announceTemplate(deps: Pick<ConversationDeps, 'realtime'>, row: TemplateRow): Promise<void> {
  await deps.realtime.emit(rooms.campaigns(row.tenantId), 'update-template', { tenant_uuid: row.tenantId, template: presentTemplate(row) });
}

export interface ProviderTemplateStatus {
  externalId: string | null;
  name: string;
  language: string | null;
  status: TemplateStatus;
  reason: string | null;
}

/**
 * Applies a status a provider reported for one of a channel's templates (matched by provider id,
 * else by name and language). Answers the changed row, or null when nothing changed (unknown
 * template, same status: duplicate webhooks and reconciliation passes change nothing).
 */
export async function applyTemplateStatus(db: Db, channelId: string, report: ProviderTemplateStatus): Promise<TemplateRow | null> {
  const row = await templateForProviderReport(db, channelId, report);
  if (!row) return null;
  const deleted = report.status === 'DELETED';
  if (row.status === report.status && (row.rejectedReason ?? null) === (report.reason ?? null) && !deleted) return null;
  // An edit waiting for the provider's answer keeps PENDING: a report arriving meanwhile may be about
  // the version before the edit. A new template's report can only be about it, and its webhook may
  // beat the answer to the submission: it is kept (syncTemplate then leaves the status alone).
  if (row.syncPending === 'edit') return null;
  return storeProviderStatus(db, row, report);
}
