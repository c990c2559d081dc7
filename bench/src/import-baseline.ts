// Bench only: the subscriber import as it was before the COPY import, kept so that
// `pnpm bench campaigns` measures both on the same machine in the same run. Not used by the product.
import { queues, rooms } from '@atende/contract';
import { announceCampaign, presentTemplate, templateInclude, type ConversationDeps } from '@atende/conversations';
import { countryForCallingCode, normalizePhone, templateParameterCount, tenantConfigOf } from '@atende/core';
import type { Db } from '@atende/db';
import type { StorageDriver } from '@atende/storage';
import { parse } from 'csv-parse';
import type { Logger } from 'pino';

export interface BaselineImportDeps extends Pick<ConversationDeps, 'realtime'> {
  db: Db;
  /** Reads the uploaded file back (the driver that kept it). */
  storage: (service: string) => StorageDriver | null;
  log: Logger;
}

interface ImportCounters {
  imported: number;
  ignored: number;
  imported_with_error: number;
}

/** Rows written per statement: one round trip per batch, never per row. */
const IMPORT_BATCH = 2000;
const NAME_MAX = 200;
const PARAMETER_MAX = 1024;

interface Row {
  name: string;
  phone: string;
  parameters: string[];
  state: 'pending' | 'error';
  error: string | null;
}

/**
 * One subscriber file (queue subscriber-import): streamed through csv-parse, each
 * row checked (name, phone valid for the tenant's country, every template parameter) and written in
 * batches; a phone already in the campaign is ignored, a contact on one of the campaign's DND lists
 * becomes 'dnd', a bad row is kept as 'error' with its reason and never stops the others. Progress
 * reaches open screens as update-campaign-tasks; a retried job starts over without duplicating.
 */
export async function importSubscribersBaseline(deps: BaselineImportDeps, raw: unknown): Promise<ImportCounters> {
  const job = queues.subscriberImport.payload.parse(raw);
  const db = deps.db;
  const campaign = await db.campaign.findFirst({
    where: { id: job.campaign_uuid, tenantId: job.tenant_uuid },
    include: { dndLists: true },
  });
  const file = await db.storedFile.findFirst({ where: { id: job.file_uuid, tenantId: job.tenant_uuid } });
  const counters: ImportCounters = { imported: 0, ignored: 0, imported_with_error: 0 };
  if (!campaign || !file) return counters;
  const tenant = await db.tenant.findUniqueOrThrow({ where: { id: campaign.tenantId }, select: { config: true } });
  const country = countryForCallingCode(tenantConfigOf(tenant.config).default_country_code);
  const template = presentTemplate(
    await db.outboundTemplate.findUniqueOrThrow({ where: { id: campaign.templateId }, include: templateInclude }),
  );
  const needed = templateParameterCount(template.config.components);
  const dndListIds = campaign.dndLists.map((d) => d.dndListId);

  const progress = async (status: 'in_progress' | 'done') => {
    await db.campaign.update({ where: { id: campaign.id }, data: { importStatus: status, importSummary: { ...counters } } });
    await deps.realtime.emit(rooms.campaigns(campaign.tenantId), 'update-campaign-tasks', {
      tenant_uuid: campaign.tenantId,
      campaign_uuid: campaign.id,
      status,
      ...counters,
      rows_done: counters.imported + counters.ignored + counters.imported_with_error,
      rows_total: null,
      rows_total_estimated: true,
      error_message: null,
    });
  };
  await progress('in_progress');

  const driver = deps.storage(file.service);
  const object = driver ? await driver.get(file.storageKey) : null;
  if (!object) {
    deps.log.error({ fileId: file.id }, 'subscriber file missing');
    await progress('done');
    return counters;
  }

  async function flush(batch: Row[]) {
    if (!batch.length) return;
    // DND: a contact of the tenant with this phone on one of the campaign's lists.
    const phones = batch.filter((r) => r.state === 'pending').map((r) => r.phone);
    const dnd = new Set(
      dndListIds.length && phones.length
        ? (
            await db.$queryRaw<{ phone: string }[]>`
              SELECT DISTINCT c."phoneNumber" AS phone FROM "Contact" c JOIN "DndContact" d ON d."contactId" = c.id
              WHERE c."tenantId" = ${campaign!.tenantId}::uuid AND c."phoneNumber" = ANY(${phones}) AND d."dndListId" = ANY(${dndListIds}::uuid[])`
          ).map((r) => r.phone)
        : [],
    );
    const states = batch.map((r) => (r.state === 'pending' && dnd.has(r.phone) ? 'dnd' : r.state));
    const inserted = await db.$queryRaw<{ state: string }[]>`
      INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", "contactId", name, "phoneNumber", parameters, state, "errorMessage", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), ${campaign!.tenantId}::uuid, ${campaign!.id}::uuid,
             (SELECT c.id FROM "Contact" c WHERE c."tenantId" = ${campaign!.tenantId}::uuid AND c."phoneNumber" = r.phone AND c."deletedAt" IS NULL ORDER BY c."createdAt" LIMIT 1),
             r.name, r.phone, string_to_array(r.params, chr(31)), r.state, r.error, clock_timestamp(), clock_timestamp()
      FROM unnest(${batch.map((r) => r.name)}::text[], ${batch.map((r) => r.phone)}::text[], ${batch.map((r) => r.parameters.join('\u001f'))}::text[],
                  ${states}::text[], ${batch.map((r) => r.error)}::text[]) AS r(name, phone, params, state, error)
      ON CONFLICT ("campaignId", "phoneNumber") DO NOTHING
      RETURNING state`;
    const withError = inserted.filter((r) => r.state === 'error').length;
    counters.imported_with_error += withError;
    counters.imported += inserted.length - withError;
    counters.ignored += batch.length - inserted.length;
    await progress('in_progress');
  }

  const parser = object.stream.pipe(
    parse({
      columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
      bom: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      delimiter: [',', ';'],
    }),
  );
  let batch: Row[] = [];
  const seen = new Set<string>();
  try {
    for await (const record of parser as AsyncIterable<Record<string, string | undefined>>) {
      const name = (record.name ?? '').slice(0, NAME_MAX);
      const rawPhone = (record.phone ?? '').slice(0, 32);
      const phone = normalizePhone(rawPhone, country);
      const parameters = Array.from({ length: needed }, (_, i) => (record[String(i + 1)] ?? '').slice(0, PARAMETER_MAX));
      const missing = parameters.findIndex((p) => p === '');
      const error = !name
        ? 'Name is required'
        : !phone
          ? 'Número de telefone inválido'
          : missing >= 0
            ? `Parameter ${missing + 1} is required`
            : null;
      const key = phone ?? rawPhone;
      // Without a phone there is nothing to tell the row by: it cannot be kept.
      if (!key || seen.has(key)) {
        counters.ignored++;
        continue;
      }
      seen.add(key);
      batch.push({ name: name || key, phone: key, parameters, state: error ? 'error' : 'pending', error });
      if (batch.length >= IMPORT_BATCH) {
        await flush(batch);
        batch = [];
      }
    }
    await flush(batch);
  } catch (error) {
    // A file csv-parse cannot read past some point: what was read stays, the rest is reported.
    deps.log.warn({ err: error, campaignId: campaign.id }, 'subscriber file not fully readable');
    await flush(batch);
  }
  await progress('done');
  await announceCampaign({ db, realtime: deps.realtime }, campaign.id);
  return counters;
}
