import { queues, SUBSCRIBER_IMPORT_ERRORS } from '@atende/contract';
import { announceCampaign, openSubscriberFile, presentTemplate, SubscriberFileError, type ConversationDeps } from '@atende/conversations';
import { countryForCallingCode, templateParameterNames, tenantConfigOf } from '@atende/core';
import {
  campaignForImport,
  importTransaction,
  recordImportDone,
  setImportStatus,
  subscriberImportFile,
  templateRowById,
  tenantConfigForImport,
  type Db,
} from '@atende/db';
import type { StorageDriver } from '@atende/storage';
import pg from 'pg';
import type { Logger } from 'pino';
import { ImportProgress } from './import-progress';
import { parameterColumns, stagedRow } from './import-rows';
import { SubscriberStaging } from './import-staging';

export interface ImportDeps extends Pick<ConversationDeps, 'realtime'> {
  db: Db;
  /** The COPY runs on a connection of its own (Prisma has no COPY), opened per import. */
  databaseUrl: string;
  /** Reads the uploaded file back (the driver that kept it). */
  storage: (service: string) => StorageDriver | null;
  log: Logger;
  /** How often progress reaches open screens (default 400 ms: under a second even on busy cores). */
  progressEveryMs?: number;
}

export interface ImportCounters {
  imported: number;
  ignored: number;
  imported_with_error: number;
}

/** A file that cannot be imported as it is: nothing is stored and the screen says why. */
class UnusableFile extends Error {}

/**
 * One subscriber file (queue subscriber-import), all or nothing: the file (CSV in
 * any usual encoding and delimiter, or .xlsx: openSubscriberFile) streams through, each row is checked in JS (name, phone valid for the tenant's country, every
 * template parameter) and COPYed into a staging table in batches, each stored by one INSERT ...
 * SELECT (SubscriberStaging) that keeps the first row of each phone, skips phones already in the
 * campaign (ignored), marks contacts on one of the campaign's DND lists 'dnd' and keeps bad rows as
 * 'error' with their reason. Rows and final counters commit in one transaction, so a failure halfway
 * leaves nothing behind and a retried job simply starts over. Progress (rows read / total) reaches
 * open screens as update-campaign-tasks at least once a second.
 */
export async function importSubscribers(deps: ImportDeps, raw: unknown, options: { finalAttempt?: boolean } = {}): Promise<ImportCounters> {
  const job = queues.subscriberImport.payload.parse(raw);
  const db = deps.db;
  const campaign = await campaignForImport(db, job.tenant_uuid, job.campaign_uuid);
  const file = await subscriberImportFile(db, job.tenant_uuid, job.file_uuid);
  const none: ImportCounters = { imported: 0, ignored: 0, imported_with_error: 0 };
  if (!campaign || !file) return none;
  const country = countryForCallingCode(tenantConfigOf(await tenantConfigForImport(db, campaign.tenantId)).default_country_code);
  const template = presentTemplate(await templateRowById(db, campaign.templateId));
  const parameters = parameterColumns(templateParameterNames(template.config.components));
  const dndListIds = campaign.dndLists.map((d) => d.dndListId);

  const progress = new ImportProgress(
    deps.realtime,
    { tenantId: campaign.tenantId, campaignId: campaign.id, fileBytes: file.size },
    deps.log,
    deps.progressEveryMs,
  );
  /** Stored outside the import's transaction: the end of an import that stored nothing. */
  const finish = async (counters: ImportCounters, errorMessage: string | null) => {
    await progress.stop();
    await setImportStatus(db, campaign.id, 'done', { ...counters, error_message: errorMessage });
    await progress.emit('done', counters, errorMessage);
    await announceCampaign({ db, realtime: deps.realtime }, campaign.id);
    return counters;
  };

  await setImportStatus(db, campaign.id, 'in_progress', { ...none, error_message: null });
  await progress.emit('in_progress', none, null);

  const driver = deps.storage(file.service);
  const object = driver ? await driver.get(file.storageKey) : null;
  if (!object) {
    deps.log.error({ fileId: file.id }, 'subscriber file missing');
    return finish(none, null);
  }

  const started = performance.now();
  const client = new pg.Client({ connectionString: deps.databaseUrl });
  progress.start();
  let staging: SubscriberStaging | null = null;
  let committed = false;
  try {
    await client.connect();
    await importTransaction(client, 'BEGIN');
    staging = await SubscriberStaging.open(client, { tenantId: campaign.tenantId, campaignId: campaign.id, dndListIds });

    // CSV in whatever encoding and delimiter, or an .xlsx; a storage read failing halfway ends the loop below with its error.
    const source = await openSubscriberFile(object.stream);
    const checkHeader = () => {
      const header = source.columns();
      if (!header?.includes('name') || !header.includes('phone')) throw new UnusableFile(SUBSCRIBER_IMPORT_ERRORS.columns);
    };
    let rowsRead = 0;
    for await (const record of source.rows) {
      if (rowsRead === 0) checkHeader();
      rowsRead++;
      const row = stagedRow(record, country, parameters);
      // Without any phone there is nothing to tell the row by: it is not kept (ignored).
      if (row) await staging.add(rowsRead, row);
      const at = source.position();
      progress.read(rowsRead, at.rows, at.bytes);
    }
    checkHeader();
    progress.readAll(rowsRead);
    const { stored, withError } = await staging.finish();
    const counters: ImportCounters = { imported: stored - withError, ignored: rowsRead - stored, imported_with_error: withError };
    // The counters commit with the rows they count.
    await recordImportDone(client, campaign.tenantId, campaign.id, { ...counters, error_message: null });
    await importTransaction(client, 'COMMIT');
    committed = true;
    deps.log.info(
      { campaignId: campaign.id, rows: rowsRead, ...counters, ms: Math.round(performance.now() - started) },
      'subscribers imported',
    );
    await progress.stop();
    await progress.emit('done', counters, null);
    await announceCampaign({ db, realtime: deps.realtime }, campaign.id);
    return counters;
  } catch (error) {
    // Stored already: a failed announcement must not report the import as failed.
    if (committed) throw error;
    await staging?.settle();
    await importTransaction(client, 'ROLLBACK').catch(() => undefined);
    if (error instanceof UnusableFile || error instanceof SubscriberFileError) {
      deps.log.warn({ err: error, campaignId: campaign.id }, 'subscriber file refused');
      return finish(none, error.message);
    }
    // Anything else may pass on a retry; after the last one the screen is told nothing was stored.
    if (options.finalAttempt ?? true) await finish(none, SUBSCRIBER_IMPORT_ERRORS.failed);
    else await progress.stop();
    throw error;
  } finally {
    await progress.stop();
    object.stream.destroy();
    await client.end().catch(() => undefined);
  }
}
