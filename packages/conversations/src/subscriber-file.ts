import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { Readable } from 'node:stream';
import { SUBSCRIBER_IMPORT_ERRORS } from '@atende/contract';
import { CsvError, parse } from 'csv-parse';
import type ExcelJS from 'exceljs';

// exceljs is large: loaded by the first .xlsx, not at start-up.
const excel = async () => (await import('exceljs')).default;

/** One row of a subscriber file, by its header's (lower-cased) column names. */
export type SubscriberRecord = Record<string, string | undefined>;

/**
 * A subscriber file that cannot be read: its text is in no encoding we know
 * ('undecodable': binary, an old .xls, UTF-8 broken halfway, a damaged .xlsx) or its CSV is broken
 * ('unreadable': an unclosed quote). The message is one of SUBSCRIBER_IMPORT_ERRORS.
 */
export class SubscriberFileError extends Error {
  constructor(readonly reason: 'undecodable' | 'unreadable') {
    super(SUBSCRIBER_IMPORT_ERRORS[reason]);
    this.name = 'SubscriberFileError';
  }
}

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
type Sniffed = { kind: 'xlsx' } | { kind: 'binary' } | { kind: 'text'; encoding: Encoding | null };

/** Bytes looked at to tell what a file is, and decoded characters looked at to tell text from binary. */
const SNIFF_BYTES = 4096;
const SAMPLE_CHARS = 4096;

/**
 * What a file's first bytes say it is: an .xlsx (a zip), an old binary .xls, or text with its
 * encoding when a BOM or the NULs of UTF-16 tell it (null: UTF-8 or Windows-1252, decided by the
 * first non-ASCII bytes).
 */
export function sniffSubscriberFile(head: Uint8Array): Sniffed {
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04)) return { kind: 'xlsx' };
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) return { kind: 'binary' };
  if (starts(0xef, 0xbb, 0xbf)) return { kind: 'text', encoding: 'utf-8' };
  if (starts(0xff, 0xfe)) return { kind: 'text', encoding: 'utf-16le' };
  if (starts(0xfe, 0xff)) return { kind: 'text', encoding: 'utf-16be' };
  // UTF-16 without a BOM: text that is mostly ASCII has a NUL in every other byte.
  const pairs = Math.min(head.length, SNIFF_BYTES) >> 1;
  let evenNuls = 0;
  let oddNuls = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) evenNuls++;
    if (head[i + 1] === 0) oddNuls++;
  }
  if (pairs >= 2 && oddNuls > pairs * 0.4 && evenNuls < pairs * 0.05) return { kind: 'text', encoding: 'utf-16le' };
  if (pairs >= 2 && evenNuls > pairs * 0.4 && oddNuls < pairs * 0.05) return { kind: 'text', encoding: 'utf-16be' };
  return { kind: 'text', encoding: null };
}

// C0 controls other than tab, line feed, form feed and carriage return; DEL; C1 controls.
const isControl = (c: number) => (c < 32 && c !== 9 && c !== 10 && c !== 12 && c !== 13) || (c >= 127 && c < 160);

/**
 * A file's text, chunk by chunk, whatever it was saved as: UTF-8 (BOM or not), UTF-16 (BOM or NUL
 * pattern), else Windows-1252 (what Excel saves in pt-BR; ISO-8859-1 reads the same) when the first
 * chunk with a byte over 127 is not UTF-8. Throws SubscriberFileError('undecodable') for bytes
 * invalid in the encoding found, or text whose first characters are more than 5% control
 * characters (a binary file).
 */
export class SubscriberTextDecoder {
  private decoder: TextDecoder | null;
  private sampled = 0;
  private controls = 0;

  constructor(public encoding: Encoding | null) {
    this.decoder = encoding ? new TextDecoder(encoding, { fatal: true }) : null;
  }

  write(chunk: Uint8Array): string {
    if (!this.decoder) {
      // ASCII reads the same in both: the choice waits for the first byte over 127.
      if (isAscii(chunk)) return this.sample(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1'));
      const utf8 = new TextDecoder('utf-8', { fatal: true });
      try {
        const text = utf8.decode(chunk, { stream: true });
        this.decoder = utf8;
        this.encoding = 'utf-8';
        return this.sample(text);
      } catch {
        this.decoder = new TextDecoder('windows-1252');
        this.encoding = 'windows-1252';
      }
    }
    return this.sample(this.decode(chunk));
  }

  end(): string {
    const text = this.sample(this.decoder ? this.decode(undefined) : '');
    if (this.sampled < SAMPLE_CHARS) this.judge();
    return text;
  }

  private decode(chunk: Uint8Array | undefined): string {
    try {
      return chunk ? this.decoder!.decode(chunk, { stream: true }) : this.decoder!.decode();
    } catch {
      throw new SubscriberFileError('undecodable');
    }
  }

  private sample(text: string): string {
    if (this.sampled >= SAMPLE_CHARS) return text;
    const n = Math.min(text.length, SAMPLE_CHARS - this.sampled);
    for (let i = 0; i < n; i++) if (isControl(text.charCodeAt(i))) this.controls++;
    this.sampled += n;
    if (this.sampled >= SAMPLE_CHARS) this.judge();
    return text;
  }

  private judge(): void {
    if (this.controls > 2 && this.controls * 20 > this.sampled) throw new SubscriberFileError('undecodable');
  }
}

const DELIMITERS = [',', ';', '\t'] as const;
type Delimiter = (typeof DELIMITERS)[number];

/** The delimiter of a header line: the one of , ; tab it holds most of outside quotes (',' on a tie or none). */
export function delimiterOf(line: string): Delimiter {
  const counts: Record<Delimiter, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && c in counts) counts[c as Delimiter]++;
  }
  return DELIMITERS.reduce((best, d) => (counts[d] > counts[best] ? d : best), ',');
}

/** Lines starting with # are notes (the template's instructions and example), never subscribers. */
const COMMENT = '#';
/** Text read ahead at most to find the header line. */
const HEADER_LOOKAHEAD = 1 << 20;

/** The first line that is neither blank nor a note, once it is whole (or the text is all there is). */
function headerLine(text: string, complete: boolean): string | null {
  const lines = text.split(/\r\n|\n|\r/);
  if (!complete) lines.pop();
  return lines.find((l) => l.trim() !== '' && !l.startsWith(COMMENT)) ?? null;
}

export interface SubscriberFile {
  kind: 'csv' | 'xlsx';
  /** The header's columns, trimmed and lower-cased: null until the header was read (or when the file has none). */
  columns(): string[] | null;
  /** The rows under the header, notes and blank rows left out. Throws SubscriberFileError. */
  rows: AsyncIterable<SubscriberRecord>;
  /** Rows parsed so far and the file's bytes they took (for progress estimates; 0 when unknown). */
  position(): { rows: number; bytes: number };
}

const headerOf = (names: unknown[]) =>
  names.map((h) =>
    String(h ?? '')
      .trim()
      .toLowerCase(),
  );

/**
 * Opens an uploaded subscriber file as rows by column name: CSV in any of the
 * encodings SubscriberTextDecoder knows, separated by , ; or tab (the header line's), or the first
 * sheet of an .xlsx (read as a stream). Lines or rows whose first cell starts with # are left out.
 * The CSV stays a stream: its bytes are decoded chunk by chunk and handed to csv-parse as UTF-8.
 */
export async function openSubscriberFile(source: AsyncIterable<Uint8Array>): Promise<SubscriberFile> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
  }
  const all = async function* () {
    yield* head;
    if (!ended) for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };
  const sniffed = sniffSubscriberFile(Buffer.concat(head));
  if (sniffed.kind === 'binary') throw new SubscriberFileError('undecodable');
  if (sniffed.kind === 'xlsx') return xlsxFile(all());
  return csvFile(all(), new SubscriberTextDecoder(sniffed.encoding));
}

async function csvFile(bytes: AsyncGenerator<Uint8Array>, decoder: SubscriberTextDecoder): Promise<SubscriberFile> {
  // Decoded (UTF-8) text is read ahead until the header line is whole: it names the delimiter.
  let bytesIn = 0;
  let bytesOut = 0;
  const decoded = async function* () {
    for await (const chunk of bytes) {
      bytesIn += chunk.length;
      const text = decoder.write(chunk);
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
  };
  const texts = decoded();
  let ahead = '';
  let complete = false;
  let line: string | null = null;
  while (line === null && !complete && ahead.length < HEADER_LOOKAHEAD) {
    const next = await texts.next();
    if (next.done) complete = true;
    else ahead += next.value;
    line = headerLine(ahead, complete);
  }
  const encode = (text: string) => {
    const chunk = Buffer.from(text, 'utf8');
    bytesOut += chunk.length;
    return chunk;
  };
  const utf8 = async function* () {
    if (ahead) yield encode(ahead);
    for await (const text of texts) yield encode(text);
  };
  let header: string[] | null = null;
  const parser = parse({
    columns: (names: string[]) => (header = headerOf(names)),
    delimiter: delimiterOf(line ?? ahead),
    comment: COMMENT,
    comment_no_infix: true,
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
  });
  const rows = async function* (): AsyncGenerator<SubscriberRecord> {
    const input = Readable.from(utf8(), { objectMode: false });
    input.on('error', (error) => parser.destroy(error));
    input.pipe(parser);
    try {
      for await (const record of parser as AsyncIterable<SubscriberRecord>) yield record;
    } catch (error) {
      throw error instanceof CsvError ? new SubscriberFileError('unreadable') : error;
    } finally {
      input.destroy();
    }
  };
  return {
    kind: 'csv',
    columns: () => header,
    rows: rows(),
    // The parser counts UTF-8 bytes; the file's own bytes are in proportion.
    position: () => ({ rows: parser.info.records, bytes: bytesOut ? Math.round((parser.info.bytes * bytesIn) / bytesOut) : 0 }),
  };
}

/** A cell as the text a CSV would hold: numbers as written, dates as ISO dates, formulas by their result. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
  }
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('formula' in value || 'sharedFormula' in value) return cellText((value as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if ('hyperlink' in value) return cellText(value.text as ExcelJS.CellValue);
  return '';
}

async function xlsxFile(bytes: AsyncGenerator<Uint8Array>): Promise<SubscriberFile> {
  let header: string[] | null = null;
  let read = 0;
  const rows = async function* (): AsyncGenerator<SubscriberRecord> {
    const input = Readable.from(bytes, { objectMode: false });
    const workbook = new (await excel()).stream.xlsx.WorkbookReader(input, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    });
    try {
      // The first sheet holds the subscribers; others (instructions) are not read.
      for await (const sheet of workbook) {
        for await (const row of sheet) {
          const cells = Array.from(Array.isArray(row.values) ? row.values.slice(1) : [], (v) => cellText(v as ExcelJS.CellValue).trim());
          if (cells.every((c) => c === '') || cells[0]?.startsWith(COMMENT)) continue;
          if (!header) {
            header = headerOf(cells);
            continue;
          }
          read++;
          const record: SubscriberRecord = {};
          header.forEach((name, i) => (record[name] = cells[i]));
          yield record;
        }
        break;
      }
    } catch (error) {
      if (error instanceof SubscriberFileError) throw error;
      // exceljs and its unzip say a damaged workbook in many ways; a storage failure keeps its own.
      throw input.errored ? error : new SubscriberFileError('undecodable');
    } finally {
      input.destroy();
    }
  };
  return { kind: 'xlsx', columns: () => header, rows: rows(), position: () => ({ rows: read, bytes: 0 }) };
}

const TEMPLATE_NOTES = {
  en: [
    '# One subscriber per line below the header: name and phone (with area code: +55 11 98765-4321) then the parameters of the template',
    '# header_N is {{N}} of the header text / body_N is {{N}} of the body / button_N_url is the variable part of the URL of button N',
    '# Lines starting with # are ignored: remove the # of the example to import it',
  ],
  pt: [
    '# Um assinante por linha abaixo do cabeçalho: name (nome) e phone (telefone com DDD: +55 11 98765-4321) e depois os parâmetros do modelo',
    '# header_N é o {{N}} do cabeçalho / body_N é o {{N}} do corpo / button_N_url é a parte variável da URL do botão N',
    '# Linhas que começam com # são ignoradas: apague o # do exemplo para importá-lo',
  ],
} as const;
export type SubscriberTemplateLanguage = keyof typeof TEMPLATE_NOTES;

/** The import template's header (name, phone, then the template's placeholders) and its example row, kept as a note. */
function templateRows(parameterNames: readonly string[]): { header: string[]; example: string[] } {
  return {
    header: ['name', 'phone', ...parameterNames],
    example: [`${COMMENT} Maria Silva`, '+55 11 98765-4321', ...parameterNames.map((n) => `${n} example`)],
  };
}

const csvCell = (value: string) => (/[",;\t\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/**
 * The downloadable CSV template: notes saying how to fill it, the header, and an
 * example row kept as a note, so the file uploaded unchanged imports nobody. UTF-8 with a BOM, so
 * Excel shows its accents.
 */
export function subscriberTemplateCsv(parameterNames: readonly string[], language: SubscriberTemplateLanguage): string {
  const { header, example } = templateRows(parameterNames);
  return `\uFEFF${[...TEMPLATE_NOTES[language], header.map(csvCell).join(','), example.map(csvCell).join(',')].join('\r\n')}\r\n`;
}

/** The Excel template: the header and the example (a note) on the first sheet, the notes on a second one. */
export async function subscriberTemplateXlsx(parameterNames: readonly string[], language: SubscriberTemplateLanguage): Promise<Buffer> {
  const { header, example } = templateRows(parameterNames);
  const workbook = new (await excel()).Workbook();
  const sheet = workbook.addWorksheet('subscribers');
  sheet.addRow(header).font = { bold: true };
  sheet.addRow(example).font = { italic: true, color: { argb: 'FF808080' } };
  // Phones stay text: Excel would turn +55 11 98765-4321 typed in a general cell into a number.
  sheet.getColumn(2).numFmt = '@';
  sheet.columns.forEach((c) => (c.width = 24));
  const notes = workbook.addWorksheet(language === 'pt' ? 'instruções' : 'instructions');
  for (const note of TEMPLATE_NOTES[language]) notes.addRow([note.slice(2)]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
