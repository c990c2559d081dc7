import { AppError, type ErrorCode, fieldMessage, MIN_FILTER_LENGTH, REPORT_MAX_DAYS, REPORT_MESSAGES } from '@atende/contract';
import { ISO_INSTANT, zonedFields, zonedText } from '@atende/core';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';
import { PassThrough, Readable } from 'node:stream';

const invalid = (code: ErrorCode, message: string, path: string, params?: Record<string, string | number>) =>
  new AppError(code, message, [{ path, message, code, params }], params);

/** An IANA zone Intl knows, else UTC (a browser's odd zone never fails a report). */
export function safeZone(zone: string | undefined): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone ?? 'UTC' });
    return zone ?? 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Midnight of `day` in `zone`, as an instant (the zone's offset on that day); an impossible day (2026-02-30) is invalid. */
function startOfDay(day: string, zone: string): Date {
  const utc = new Date(`${day}T00:00:00.000Z`);
  if (Number.isNaN(utc.getTime()) || utc.toISOString().slice(0, 10) !== day) return new Date(Number.NaN);
  const shown = new Date(utc.toLocaleString('en-US', { timeZone: zone }));
  const asUtc = new Date(utc.toLocaleString('en-US', { timeZone: 'UTC' }));
  return new Date(utc.getTime() - (shown.getTime() - asUtc.getTime()));
}

/**
 * The filter rules shared by every report: both dates, none in the future, under 31 days,
 * text filters of 3+ characters. The range ends at the end of the caller's last day.
 */
export function reportRange(
  query: { start?: string; end?: string; timezone?: string },
  textFilters: Record<string, string | undefined> = {},
  now = new Date(),
): { from: Date; to: Date; zone: string } {
  if (!query.start) throw invalid('report_start_required', REPORT_MESSAGES.startRequired, 'start');
  if (!query.end) throw invalid('report_end_required', REPORT_MESSAGES.endRequired, 'end');
  const zone = safeZone(query.timezone);
  const from = startOfDay(query.start, zone);
  const endStart = startOfDay(query.end, zone);
  if (Number.isNaN(from.getTime())) throw invalid('report_start_required', REPORT_MESSAGES.startRequired, 'start');
  if (Number.isNaN(endStart.getTime())) throw invalid('report_end_required', REPORT_MESSAGES.endRequired, 'end');
  if (from > now) throw invalid('report_start_future', REPORT_MESSAGES.startFuture, 'start');
  if (endStart > now) throw invalid('report_end_future', REPORT_MESSAGES.endFuture, 'end');
  if (endStart < from) throw invalid('report_end_before_start', REPORT_MESSAGES.order, 'end');
  if ((endStart.getTime() - from.getTime()) / 86_400_000 >= REPORT_MAX_DAYS)
    throw invalid('report_range_too_long', REPORT_MESSAGES.range, 'end', { max_days: REPORT_MAX_DAYS });
  for (const [label, value] of Object.entries(textFilters)) {
    if (value && value.length < MIN_FILTER_LENGTH)
      throw invalid('report_filter_too_short', fieldMessage('report_filter_too_short', { filter: label, min: MIN_FILTER_LENGTH }), label, {
        filter: label,
        min: MIN_FILTER_LENGTH,
      });
  }
  return { from, to: new Date(endStart.getTime() + 86_400_000), zone };
}

/**
 * A cell a spreadsheet could run as a formula is made plain text: one starting with = + - @ (or their
 * full-width forms ＝ ＋ － ＠), with ; (some locales' separator, DDE), with a tab, CR or LF, with spaces
 * before any of those, or with a quote before them. A plain signed number (an E.164
 * phone +5511..., a negative figure) runs nothing and is left as it is.
 */
const FORMULA_START = /^[\s"']*[=+\-@;\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r\n]/;
export const neutralise = (value: string): string => (FORMULA_START.test(value) && !/^[+-]\d+(\.\d+)?$/.test(value) ? `'${value}` : value);

export type ExportFormat = 'csv' | 'excel' | 'json';

/** The export asked for: `format`, else the Accept header (CSV, Excel), else JSON. */
export function exportFormat(format: ExportFormat | undefined, accept: string | undefined): ExportFormat {
  if (format) return format;
  const a = String(accept ?? '');
  return /csv/.test(a) ? 'csv' : /excel|spreadsheet/.test(a) ? 'excel' : 'json';
}

export const CSV_BOM = '\uFEFF';

/** Rows written between two yields to the event loop: a long export never stalls the other requests. */
const CHUNK = 1_000;
const breath = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The rows as text: JSON as they are, else the `header` line then one line of neutralised cells per row. */
async function* lines<R extends object>(
  format: ExportFormat,
  columns: readonly string[],
  header: readonly string[],
  data: R[],
  zone: string,
): AsyncGenerator<string> {
  // A UTF-8 byte order mark: Excel (pt-BR Windows) otherwise reads the file as Windows-1252 and
  // mangles every accent. CSV readers that know UTF-8 skip it.
  if (format === 'csv') yield CSV_BOM;
  for (let i = 0; i < data.length; i += CHUNK) {
    const slice = data.slice(i, i + CHUNK);
    if (format === 'json') yield (i === 0 ? '[' : ',') + slice.map((r) => JSON.stringify(r)).join(',');
    else yield stringify(i === 0 ? [[...header], ...slice.map((r) => cells(columns, r, zone))] : slice.map((r) => cells(columns, r, zone)));
    await breath();
  }
  if (format === 'json') yield data.length === 0 ? '[]' : ']';
  else if (data.length === 0) yield stringify([[...header]]);
}
/** For an Excel date cell: the caller's wall-clock time (Excel dates have no zone; exceljs writes them as UTC). */
export function zonedExcelDate(iso: string, zone: string): Date {
  const w = zonedFields(new Date(iso), zone);
  return new Date(Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s));
}

/** CSV cells: times in the caller's zone, everything else as text, neutralised. */
const cells = (columns: readonly string[], r: object, zone: string) =>
  columns.map((c) => {
    const value = (r as Record<string, unknown>)[c];
    return typeof value === 'string' && ISO_INSTANT.test(value) ? zonedText(value, zone) : neutralise(String(value ?? ''));
  });

/** Excel cells: numbers as numbers, times as real dates in the caller's zone, text neutralised. */
const excelCells = (columns: readonly string[], r: object, zone: string): (string | number | Date)[] =>
  columns.map((c) => {
    const value = (r as Record<string, unknown>)[c];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && ISO_INSTANT.test(value)) return zonedExcelDate(value, zone);
    return neutralise(String(value ?? ''));
  });

/**
 * Sends report rows as a download, streamed: JSON as they are, CSV (csv-stringify) and Excel (the
 * exceljs streaming writer, inline strings) as a header of `columns` then one line per row, every
 * text cell neutralised against formula injection. The rows are written a thousand at a time with a
 * yield between, so an export of 100,000 rows neither holds the workbook in memory nor blocks the api
 * (the in-memory workbook took 22 s and 1.4 GB for 78,000 chat history rows). `header` is the first
 * line of CSV and Excel (the columns' labels in the caller's language); the keys when absent.
 */
export async function sendExport<R extends object>(
  reply: FastifyReply,
  name: string,
  format: ExportFormat,
  columns: readonly (keyof R & string)[],
  data: R[],
  timezone?: string,
  header: readonly string[] = columns,
) {
  // JSON keeps the instants as the api answers them; CSV and Excel show the caller's wall-clock time.
  const zone = safeZone(timezone);
  const file = `${name}-${new Date().toISOString().slice(0, 10)}`;
  if (format !== 'excel') {
    const type = format === 'json' ? 'application/json' : 'text/csv; charset=utf-8';
    return reply
      .header('content-type', type)
      .header('content-disposition', `attachment; filename="${file}.${format}"`)
      .send(Readable.from(lines(format, columns, header, data, zone)));
  }
  // exceljs is large: loaded on the first Excel export, not at start-up.
  const { default: ExcelJS } = await import('exceljs');
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: true });
  const sheet = workbook.addWorksheet('report');
  // Date cells show as dates and times, not as serial numbers.
  sheet.columns = columns.map((key) => ({
    key,
    style: data.some((r) => ISO_INSTANT.test(String((r as Record<string, unknown>)[key] ?? ''))) ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : {},
  }));
  void (async () => {
    sheet.addRow([...header]).commit();
    for (const [i, row] of data.entries()) {
      sheet.addRow(excelCells(columns, row, zone)).commit();
      if (i % CHUNK === CHUNK - 1) await breath();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${file}.xlsx"`)
    .send(out);
}
