import { pipeline } from 'node:stream/promises';
import { queues, rooms, SUBSCRIBER_IMPORT_ERRORS } from '@atende/contract';
import { announceCampaign, presentTemplate, templateInclude, type ConversationDeps } from '@atende/conversations';
import { countryForCallingCode, templateParameterCount, tenantConfigOf } from '@atende/core';
import type { Db } from '@atende/db';
import type { StorageDriver } from '@atende/storage';
import { CsvError, parse } from 'csv-parse';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Logger } from 'pino';
import { ImportProgress } from './import-progress';
import { copyLine, STAGING_COLUMNS, stagedRow } from './import-rows';

export interface ImportDeps extends Pick<ConversationDeps, 'realtime'> {
  db: Db;
  /** The COPY runs on a connection of its own (Prisma has no COPY), opened per import. */
  databaseUrl: string;
  /** Reads the uploaded file back (the driver that kept it). */
  storage: (service: string) => StorageDriver | null;
  log: Logger;
  /** How often progress reaches open screens while the file is read; 500 ms keeps it under a second. */
  progressEveryMs?: number;
}

export interface ImportCounters {
  imported: number;
  ignored: number;
  imported_with_error: number;
}

/** Bytes handed to COPY at a time: few large writes instead of one per row. */
const COPY_CHUNK = 64 * 1024;

/** A file that cannot be imported as it is: nothing is stored and the screen says why. */
class UnusableFile extends Error {}

/**
 * One subscriber file (queue subscriber-import, spec 001 §4-§5), all or nothing: the file streams
 * through csv-parse, each row is checked in JS (name, phone valid for the tenant's country, every
 * template parameter) and streamed by COPY into a staging table; one INSERT ... SELECT then keeps the
 * first row of each phone in the file, skips phones already in the campaign (ignored), marks
 * contacts on one of the campaign's DND lists 'dnd' and keeps bad rows as 'error' with their reason.
 * The rows and the final counters commit together, so a failure halfway leaves nothing behind and a
 * retried job simply starts over. Progress (rows read / total) reaches open screens as
 * update-campaign-tasks at least once a second.
 */
export async function importSubscribers(deps: ImportDeps, raw: unknown, options: { finalAttempt?: boolean } = {}): Promise<ImportCounters> {
  const job = queues.subscriberImport.payload.parse(raw);
  const db = deps.db;
  const campaign = await db.campaign.findFirst({ where: { id: job.campaign_uuid, tenantId: job.tenant_uuid }, include: { dndLists: true } });
  const file = await db.storedFile.findFirst({ where: { id: job.file_uuid, tenantId: job.tenant_uuid } });
  const none: ImportCounters = { imported: 0, ignored: 0, imported_with_error: 0 };
  if (!campaign || !file) return none;
  const tenant = await db.tenant.findUniqueOrThrow({ where: { id: campaign.tenantId }, select: { config: true } });
  const country = countryForCallingCode(tenantConfigOf(tenant.config).default_country_code);
  const template = presentTemplate(await db.outboundTemplate.findUniqueOrThrow({ where: { id: campaign.templateId }, include: templateInclude }));
  const needed = templateParameterCount(template.config.components);
  const dndListIds = campaign.dndLists.map((d) => d.dndListId);

  const progress = new ImportProgress(deps.realtime, { tenantId: campaign.tenantId, campaignId: campaign.id, fileBytes: file.size }, deps.log, deps.progressEveryMs);
  /** Stored outside the import's transaction: the end of an import that stored nothing. */
  const finish = async (counters: ImportCounters, errorMessage: string | null) => {
    await progress.stop();
    await db.campaign.update({ where: { id: campaign.id }, data: { importStatus: 'done', importSummary: { ...counters, error_message: errorMessage } } });
    await progress.emit('done', counters, errorMessage);
    await announceCampaign({ db, realtime: deps.realtime }, campaign.id);
    return counters;
  };

  await db.campaign.update({ where: { id: campaign.id }, data: { importStatus: 'in_progress', importSummary: { ...none, error_message: null } } });
  await progress.emit('in_progress', none, null);

  const driver = deps.storage(file.service);
  const object = driver ? await driver.get(file.storageKey) : null;
  if (!object) {
    deps.log.error({ fileId: file.id }, 'subscriber file missing');
    return finish(none, null);
  }

  const client = new pg.Client({ connectionString: deps.databaseUrl });
  await client.connect();
  progress.start();
  try {
    await client.query('BEGIN');
    // The sorts of 100,000 staged rows stay in memory rather than spilling to disk.
    await client.query(`SET LOCAL work_mem = '64MB'`);
    await client.query(`CREATE TEMP TABLE import_rows (line int NOT NULL, name text NOT NULL, phone text NOT NULL, parameters text[] NOT NULL, state text NOT NULL, error text) ON COMMIT DROP`);

    let header: string[] | null = null;
    const parser = parse({
      columns: (names: string[]) => (header = names.map((h) => h.trim().toLowerCase())),
      bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, delimiter: [',', ';'],
    });
    const checkHeader = () => {
      if (!header?.includes('name') || !header.includes('phone')) throw new UnusableFile(SUBSCRIBER_IMPORT_ERRORS.columns);
    };
    let rowsRead = 0;
    let withoutPhone = 0;
    await pipeline(
      object.stream,
      parser,
      async function* toCopyText(records: AsyncIterable<Record<string, string | undefined>>) {
        let chunk = '';
        for await (const record of records) {
          if (rowsRead === 0) checkHeader();
          rowsRead++;
          const row = stagedRow(record, country, needed);
          if (row) chunk += copyLine(rowsRead, row);
          else withoutPhone++;
          if (chunk.length >= COPY_CHUNK) {
            yield chunk;
            chunk = '';
          }
          progress.read(rowsRead, parser.info.bytes);
        }
        if (chunk) yield chunk;
      },
      client.query(copyFrom(`COPY import_rows ${STAGING_COLUMNS} FROM STDIN`)),
    );
    checkHeader();
    progress.readAll(rowsRead);

    // spec 001 §4-§5: the first row of a phone wins; a phone already in the campaign is ignored.
    const inserted = await client.query<{ inserted: number; with_error: number }>(
      `WITH firsts AS (
         SELECT DISTINCT ON (phone) line, name, phone, parameters, state, error FROM import_rows ORDER BY phone, line
       ), stored AS (
         INSERT INTO "CampaignSubscriber" (id, "tenantId", "campaignId", "contactId", name, "phoneNumber", parameters, state, "errorMessage", "createdAt", "updatedAt")
         SELECT gen_random_uuid(), $1::uuid, $2::uuid,
                (SELECT c.id FROM "Contact" c WHERE c."tenantId" = $1::uuid AND c."phoneNumber" = r.phone AND c."deletedAt" IS NULL ORDER BY c."createdAt" LIMIT 1),
                r.name, r.phone, r.parameters,
                CASE WHEN r.state = 'pending' AND cardinality($3::uuid[]) > 0 AND EXISTS (
                       SELECT 1 FROM "Contact" c JOIN "DndContact" d ON d."contactId" = c.id
                       WHERE c."tenantId" = $1::uuid AND c."phoneNumber" = r.phone AND d."dndListId" = ANY($3::uuid[]))
                     THEN 'dnd' ELSE r.state END,
                r.error, clock_timestamp(), clock_timestamp()
         FROM (SELECT * FROM firsts ORDER BY line) r
         ON CONFLICT ("campaignId", "phoneNumber") DO NOTHING
         RETURNING state
       )
       SELECT count(*)::int AS inserted, (count(*) FILTER (WHERE state = 'error'))::int AS with_error FROM stored`,
      [campaign.tenantId, campaign.id, dndListIds],
    );
    const { inserted: stored = 0, with_error: withError = 0 } = inserted.rows[0] ?? {};
    const counters: ImportCounters = { imported: stored - withError, ignored: rowsRead - stored, imported_with_error: withError };
    await client.query(`UPDATE "Campaign" SET "importStatus" = 'done', "importSummary" = $3::jsonb, "updatedAt" = now() WHERE id = $2::uuid AND "tenantId" = $1::uuid`, [
      campaign.tenantId, campaign.id, JSON.stringify({ ...counters, error_message: null }),
    ]);
    await client.query('COMMIT');
    deps.log.info({ campaignId: campaign.id, rows: rowsRead, withoutPhone, ...counters }, 'subscribers imported');
    await progress.stop();
    await progress.emit('done', counters, null);
    await announceCampaign({ db, realtime: deps.realtime }, campaign.id);
    return counters;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (error instanceof UnusableFile || error instanceof CsvError) {
      deps.log.warn({ err: error, campaignId: campaign.id }, 'subscriber file refused');
      return finish(none, error instanceof UnusableFile ? error.message : SUBSCRIBER_IMPORT_ERRORS.unreadable);
    }
    // Anything else may pass on a retry; after the last one the screen is told nothing was stored.
    if (options.finalAttempt ?? true) await finish(none, SUBSCRIBER_IMPORT_ERRORS.failed);
    else await progress.stop();
    throw error;
  } finally {
    await progress.stop();
    await client.end().catch(() => undefined);
  }
}
