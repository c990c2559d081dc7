import { channelKind } from '@atende/core';
import {
  ChannelDeliveryError,
  decryptCredentials,
  isWhatsAppAdapter,
  type ChannelAdapter,
  type ChannelTarget,
  type WhatsAppAdapter,
} from '@atende/channels';
import { queues, TemplateComponentSchema, type TemplateCategory } from '@atende/contract';
import { announceTemplate, applyTemplateStatus } from '@atende/conversations';
import {
  channelsWithLiveTemplates,
  finishTemplateSync,
  storeSubmissionStatus,
  templateDeletedAt,
  templateForSync,
  type Db,
  type TemplateSyncResult,
} from '@atende/db';
import type { RealtimeOutbox } from '@atende/queue';
import type { Logger } from 'pino';

export interface TemplateSyncDeps {
  db: Db;
  realtime: Pick<RealtimeOutbox, 'emit'>;
  adapters: Map<string, ChannelAdapter>;
  secretsKey: Buffer;
  log: Logger;
}

export interface SyncAttempt {
  /** No retry follows: a transient failure now is recorded on the template. */
  finalAttempt: boolean;
}

const REASON_MAX = 2000;

function providerOf(
  deps: TemplateSyncDeps,
  channel: { id: string; type: string; config: unknown; credentialsEncrypted: string | null },
): { adapter: WhatsAppAdapter; target: ChannelTarget } | null {
  const adapter = deps.adapters.get(channelKind(channel.type));
  if (!adapter || !isWhatsAppAdapter(adapter) || !adapter.supportsTemplates) return null;
  const credentials = channel.credentialsEncrypted ? decryptCredentials(channel.credentialsEncrypted, deps.secretsKey) : null;
  return { adapter, target: { uuid: channel.id, type: channel.type, config: channel.config, credentials } };
}

/**
 * Submits, edits or deletes one template at its provider (queue template-sync) and stores what the
 * provider answered. Idempotent: a template no longer waiting for this action is left alone. A
 * provider refusal (permanent) marks the template REJECTED with the provider's reason; transient
 * failures are retried by BullMQ.
 */
export async function syncTemplate(deps: TemplateSyncDeps, raw: unknown, attempt: SyncAttempt): Promise<string> {
  const job = queues.templateSync.payload.parse(raw);
  const row = await templateForSync(deps.db, job.tenant_uuid, job.template_uuid);
  if (!row || row.syncPending !== job.action) return 'skipped';
  const provider = providerOf(deps, row.channel);
  const done = async (data: TemplateSyncResult) => {
    const updated = await finishTemplateSync(deps.db, row.id, data);
    if (!updated.deletedAt) await announceTemplate(deps, updated);
  };
  if (!provider) {
    await done({ syncError: `Channel type ${row.channel.type} has no template provider` });
    return 'no-provider';
  }
  const definition = {
    name: row.name,
    language: row.language,
    category: row.category as TemplateCategory,
    components: TemplateComponentSchema.array().parse(row.components),
  };
  try {
    if (job.action === 'delete') {
      await provider.adapter.deleteTemplate(row.externalId, row.name, provider.target);
      await done({ syncError: null });
      return 'deleted';
    }
    const answer =
      job.action === 'submit'
        ? await provider.adapter.submitTemplate(definition, provider.target)
        : await provider.adapter.editTemplate(row.externalId, definition, provider.target);
    // Deleted while the submission was on its way: remove it at the provider too.
    if (await templateDeletedAt(deps.db, row.id)) {
      await provider.adapter
        .deleteTemplate(answer.externalId, row.name, provider.target)
        .catch((err: unknown) => deps.log.warn({ err, templateId: row.id }, 'template deleted here could not be deleted at the provider'));
    }
    if (job.action === 'submit') {
      // The provider's status webhook can beat its answer to the submission (applyTemplateStatus takes
      // it): a status reported meanwhile is newer than the answer's, so the answer sets only an unchanged one.
      const answered = await storeSubmissionStatus(deps.db, row.id, row.status, answer);
      await done({ externalId: answer.externalId ?? row.externalId, syncError: null });
      return answered ? answer.status : 'reported-meanwhile';
    }
    await done({ status: answer.status, externalId: answer.externalId ?? row.externalId, rejectedReason: answer.reason, syncError: null });
    return answer.status;
  } catch (error) {
    const permanent = error instanceof ChannelDeliveryError && error.kind === 'permanent';
    if (!permanent && !attempt.finalAttempt) throw error;
    const reason = (error instanceof ChannelDeliveryError ? error.message : 'Template submission failed: internal error').slice(
      0,
      REASON_MAX,
    );
    if (job.action === 'delete') await done({ syncError: reason });
    else await done({ status: 'REJECTED', rejectedReason: reason, syncError: reason });
    deps.log.warn({ templateId: row.id, reason }, 'template sync failed');
    if (permanent) return 'rejected';
    throw error;
  }
}

/**
 * Reconciliation (maintenance job sync-templates): asks each provider for the status of every
 * template, in case a status webhook was lost; changes reach open lists like webhook ones.
 */
export async function reconcileTemplates(deps: TemplateSyncDeps): Promise<{ channels: number; changed: number; failed: number }> {
  const channels = await channelsWithLiveTemplates(deps.db);
  let changed = 0;
  let failed = 0;
  for (const channel of channels) {
    const provider = providerOf(deps, channel);
    if (!provider) continue;
    try {
      for (const report of await provider.adapter.listTemplates(provider.target)) {
        const row = await applyTemplateStatus(deps.db, channel.id, report);
        if (row) {
          changed++;
          await announceTemplate(deps, row);
        }
      }
    } catch (err) {
      failed++;
      deps.log.warn({ err, channelId: channel.id }, 'template reconciliation failed for a channel');
    }
  }
  return { channels: channels.length, changed, failed };
}
