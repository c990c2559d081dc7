import type { ReportTable } from '@atende/contract';
import { reportLabel, reportLanguage } from '@atende/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { exportFormat, sendExport, type ExportFormat } from './export';

export type Cell = string | number | null;
export type Row = Record<string, Cell>;
export interface Column {
  key: string;
  /** English; the screen and the CSV / Excel header show it in the caller's language. */
  label: string;
  /** The values are English phrases (weekdays, outcomes, yes / no), written in the caller's language too. */
  translated?: boolean;
}

/** A share as the reports write it: '12.50%' (0.00% of nothing). */
export const rate = (part: number, whole: number): string => (whole === 0 ? '0.00%' : `${((part / whole) * 100).toFixed(2)}%`);
/** A SQL count or sum (bigint) as a number, 0 when absent. */
export const n = (v: bigint | number | null | undefined): number => Number(v ?? 0);

/** Rows a screen shows at most; a download carries up to EXPORT_MAX_ROWS. */
const SCREEN_ROWS = 500;
const EXPORT_MAX_ROWS = 200_000;
/** Rows a paged download reads per query (a setting only so that tests can read a few rows per page). */
export const exportPaging = { rows: 5_000 };

/**
 * Answers a report's table, or with `format` the download of every row. A `paged` report (a list, not
 * totals) is read for a download exportPaging.rows rows at a time after the last row read, so that a long
 * one never holds the api on one huge result (78,000 chat history rows in one query held every other
 * request for 1.3 s). CSV and Excel carry the labels and translated values in the requester's
 * language (Accept-Language); JSON keeps the keys and values as the api answers them.
 */
export async function answerReport(
  request: FastifyRequest,
  reply: FastifyReply,
  q: { format?: ExportFormat; timezone?: string },
  name: string,
  columns: Column[],
  load: (limit: number, after: Row | null) => Promise<Row[]>,
  paged = false,
) {
  if (q.format) {
    const rows: Row[] = [];
    for (;;) {
      const page = await load(paged ? Math.min(exportPaging.rows, EXPORT_MAX_ROWS - rows.length) : EXPORT_MAX_ROWS, rows.at(-1) ?? null);
      rows.push(...page);
      if (!paged || page.length < exportPaging.rows || rows.length >= EXPORT_MAX_ROWS) break;
    }
    const format = exportFormat(q.format, request.headers.accept);
    const keys = columns.map((c) => c.key);
    if (format === 'json') return sendExport(reply, name, format, keys, rows, q.timezone);
    const language = reportLanguage(request.headers['accept-language']);
    const translated = columns.filter((c) => c.translated).map((c) => c.key);
    const shown = translated.length
      ? rows.map((r) => ({
          ...r,
          ...Object.fromEntries(translated.map((k) => [k, typeof r[k] === 'string' ? reportLabel(r[k], language) : r[k]])),
        }))
      : rows;
    return sendExport(
      reply,
      name,
      format,
      keys,
      shown,
      q.timezone,
      columns.map((c) => reportLabel(c.label, language)),
    );
  }
  const rows = await load(SCREEN_ROWS + 1, null);
  const table: ReportTable = { columns, rows: rows.slice(0, SCREEN_ROWS), truncated: rows.length > SCREEN_ROWS };
  return { data: table };
}
