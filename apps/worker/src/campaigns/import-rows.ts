import { normalizePhone, SUBSCRIBER_REFUSALS, type countryForCallingCode } from '@atende/core';

type CountryCode = ReturnType<typeof countryForCallingCode>;

const NAME_MAX = 200;
const PHONE_MAX = 32;
const PARAMETER_MAX = 1024;

/** One CSV row as the staging table takes it: state and error decided here, duplicates and DND in SQL. */
export interface StagedRow {
  name: string;
  /** E.164 when valid, else the phone as written (the row is then kept as an error). */
  phone: string;
  parameters: string[];
  state: 'pending' | 'error';
  error: string | null;
}

// Postgres text cannot hold NUL; a stray one in a cell must not fail the whole import.
const NUL = /\0/g;
const cell = (value: string | undefined, max: number) => (value ?? '').replace(NUL, '').slice(0, max);

/** The columns a parameter may be in: named after the template's placeholder (body_1), else numbered (1). */
export type ParameterColumn = readonly [named: string, numbered: string];
export const parameterColumns = (names: readonly string[]): ParameterColumn[] => names.map((name, i) => [name, String(i + 1)]);

/**
 * Row rules: name required, phone valid for the tenant's country, every template
 * parameter present (the first failing rule is the row's error). A row without any phone has
 * nothing to tell it by and is not kept (null: ignored).
 */
export function stagedRow(
  record: Record<string, string | undefined>,
  country: CountryCode,
  columns: readonly ParameterColumn[],
): StagedRow | null {
  const name = cell(record.name, NAME_MAX);
  const rawPhone = cell(record.phone, PHONE_MAX);
  const phone = normalizePhone(rawPhone, country);
  const parameters = columns.map(([named, numbered]) => cell(record[named] ?? record[numbered], PARAMETER_MAX));
  const missing = parameters.findIndex((p) => p === '');
  const error = !name
    ? SUBSCRIBER_REFUSALS.noName
    : !phone
      ? SUBSCRIBER_REFUSALS.badPhone
      : missing >= 0
        ? SUBSCRIBER_REFUSALS.parameter(missing + 1)
        : null;
  const key = phone ?? rawPhone;
  if (!key) return null;
  return { name: name || key, phone: key, parameters, state: error ? 'error' : 'pending', error };
}

// COPY text format: backslash, newline, carriage return and tab are escaped; \N is NULL.
const COPY_SPECIAL = /[\\\n\r\t]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const copyText = (value: string) => value.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]!);
// A text[] literal: every element double-quoted, its quotes and backslashes escaped.
const arrayLiteral = (values: string[]) => `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/** The columns of the staging table, in COPY order. */
export const STAGING_COLUMNS = '(id, line, name, phone, parameters, state, error)';

/** One line of COPY ... FROM STDIN (text format) for the staging table: the row's future id, its line, its fields. */
export function copyLine(id: string, line: number, row: StagedRow): string {
  return `${id}\t${line}\t${copyText(row.name)}\t${copyText(row.phone)}\t${copyText(arrayLiteral(row.parameters))}\t${row.state}\t${row.error === null ? '\\N' : copyText(row.error)}\n`;
}
