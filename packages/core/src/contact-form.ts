import { CUSTOM_FIELD_MAX, fieldMessage, type Contact } from '@atende/contract';
import type { CountryCode } from 'libphonenumber-js';
import { z } from 'zod';
import { DEFAULT_PHONE_COUNTRY, isStrictE164, normalizePhone } from './phone';

// The spec's messages, shared by the customer form and the selected-text binding: texts of the
// contract's catalogue (field-messages.ts).
export const REQUIRED = fieldMessage('required');
export const INVALID_EMAIL = fieldMessage('email_invalid');
export const INVALID_PHONE = fieldMessage('phone_invalid');
export const ONLY_NUMBERS = fieldMessage('digits_only');
export const NUMBER_TOO_LARGE = fieldMessage('number_too_large');
export const PHONE1_READ_ONLY = fieldMessage('phone_1_locked');
export const NOT_E164_PHONE = fieldMessage('phone_not_e164');
export const APPEND_NOT_ALLOWED = fieldMessage('append_not_allowed');
/** Gives 'Máximo de %{maxLength} caracteres'; the message carries the number. */
export const maxLengthMessage = (maxLength: number): string => fieldMessage('field_max_characters', { max: maxLength });

/** The api keeps customer_id in a Postgres integer. */
const CUSTOMER_ID_MAX = 2_147_483_647;

export type ContactFieldKind = 'text' | 'telephone' | 'number' | 'email';
export type ContactFieldKey =
  | 'name'
  | 'phone1'
  | 'phone2'
  | 'organization'
  | 'email'
  | 'gov_id'
  | 'customer_id'
  | 'zip_code'
  | 'address_line_1'
  | 'address_line_2'
  | 'city'
  | 'state'
  | 'country'
  | 'notes';

export interface ContactFieldSpec {
  key: ContactFieldKey;
  kind: ContactFieldKind;
  /** Shown in the panel without the 'Show N more fields' toggle. */
  primary: boolean;
  max: number;
}

/** The contact's fixed fields in panel order; lengths as the contract accepts them. */
export const CONTACT_FIELDS: readonly ContactFieldSpec[] = [
  { key: 'name', kind: 'text', primary: true, max: 200 },
  { key: 'phone1', kind: 'telephone', primary: true, max: 32 },
  { key: 'phone2', kind: 'telephone', primary: true, max: 32 },
  { key: 'organization', kind: 'text', primary: true, max: 200 },
  { key: 'email', kind: 'email', primary: true, max: 254 },
  { key: 'gov_id', kind: 'text', primary: false, max: 64 },
  { key: 'customer_id', kind: 'number', primary: false, max: 10 },
  { key: 'zip_code', kind: 'text', primary: false, max: 32 },
  { key: 'address_line_1', kind: 'text', primary: false, max: 300 },
  { key: 'address_line_2', kind: 'text', primary: false, max: 300 },
  { key: 'city', kind: 'text', primary: false, max: 120 },
  { key: 'state', kind: 'text', primary: false, max: 120 },
  { key: 'country', kind: 'text', primary: false, max: 120 },
  { key: 'notes', kind: 'text', primary: false, max: 5000 },
];

export const contactFieldSpec = (key: ContactFieldKey): ContactFieldSpec => CONTACT_FIELDS.find((f) => f.key === key)!;

/** A dynamic field (`fields` or `livechat_custom_fields`) as a form row: names may hold dots, so no record paths. */
export interface CustomFieldRow {
  key: string;
  value: string;
}

/** What the customer form edits: every input is text. */
export type ContactFormValues = Record<ContactFieldKey, string> & {
  fields: CustomFieldRow[];
  livechat_custom_fields: CustomFieldRow[];
};

/** The PATCH /api/v1/contacts/{id} body the form produces (phone1 is read-only and never sent). */
export interface ContactUpdate {
  name: string;
  organization: string;
  phone2: string | null;
  email: string | null;
  customer_id: number | null;
  gov_id: string | null;
  zip_code: string | null;
  address_line_1: string | null;
  address_line_2: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  notes: string | null;
  fields: Record<string, string>;
  livechat_custom_fields: Record<string, string>;
}

const rows = (record: Record<string, string>): CustomFieldRow[] => Object.entries(record).map(([key, value]) => ({ key, value }));

/** The form's starting values for a contact. */
export function contactFormValues(contact: Contact): ContactFormValues {
  return {
    name: contact.name,
    phone1: contact.phone1 ?? contact.phone_number ?? '',
    phone2: contact.phone2 ?? '',
    organization: contact.organization?.name ?? '',
    email: contact.email ?? '',
    gov_id: contact.gov_id ?? '',
    customer_id: contact.customer_id === null ? '' : String(contact.customer_id),
    zip_code: contact.zip_code ?? '',
    address_line_1: contact.address_line_1 ?? '',
    address_line_2: contact.address_line_2 ?? '',
    city: contact.city ?? '',
    state: contact.state ?? '',
    country: contact.country ?? '',
    notes: contact.notes ?? '',
    fields: rows(contact.fields),
    livechat_custom_fields: rows(contact.livechat_custom_fields),
  };
}

const isEmail = (value: string) => z.email().safeParse(value).success;
const spec = (key: ContactFieldKey) => contactFieldSpec(key);
const requiredText = (key: ContactFieldKey) =>
  z
    .string()
    .trim()
    .min(1, REQUIRED)
    .max(spec(key).max, maxLengthMessage(spec(key).max));
const optionalText = (key: ContactFieldKey) =>
  z
    .string()
    .trim()
    .max(spec(key).max, maxLengthMessage(spec(key).max))
    .transform((v) => (v === '' ? null : v));
const customFields = z
  .array(z.object({ key: z.string(), value: z.string().max(CUSTOM_FIELD_MAX, maxLengthMessage(CUSTOM_FIELD_MAX)) }))
  .transform((list) => Object.fromEntries(list.map((row) => [row.key, row.value])));

/** A customer id typed as text: empty is none, otherwise digits only, read as an integer. */
function customerIdIssue(value: string): string | null {
  if (value === '') return null;
  if (!/^\d+$/.test(value)) return ONLY_NUMBERS;
  return Number(value) > CUSTOMER_ID_MAX ? NUMBER_TOO_LARGE : null;
}

/**
 * The customer details form: name and organization required ('Required'); e-mail
 * lowercased and valid ('Please insert a valid e-mail'); customer id read as an integer; phone2
 * valid for the default calling country ('Número de telefone inválido') and sent in E.164; custom
 * field values at most 2000 characters. phone1 is read-only and left out of the body.
 */
export function contactFormSchema(country: CountryCode = DEFAULT_PHONE_COUNTRY) {
  return z
    .object({
      name: requiredText('name'),
      phone1: z.string(),
      phone2: z
        .string()
        .trim()
        .transform((value, ctx) => {
          if (value === '') return null;
          const e164 = normalizePhone(value, country);
          if (!e164) ctx.addIssue({ code: 'custom', message: INVALID_PHONE });
          return e164;
        }),
      organization: requiredText('organization'),
      email: z
        .string()
        .trim()
        .toLowerCase()
        .max(spec('email').max, maxLengthMessage(spec('email').max))
        .refine((v) => v === '' || isEmail(v), INVALID_EMAIL)
        .transform((v) => (v === '' ? null : v)),
      gov_id: optionalText('gov_id'),
      customer_id: z
        .string()
        .trim()
        .transform((value, ctx) => {
          const issue = customerIdIssue(value);
          if (issue) ctx.addIssue({ code: 'custom', message: issue });
          return value === '' || issue ? null : Number.parseInt(value, 10);
        }),
      zip_code: optionalText('zip_code'),
      address_line_1: optionalText('address_line_1'),
      address_line_2: optionalText('address_line_2'),
      city: optionalText('city'),
      state: optionalText('state'),
      country: optionalText('country'),
      notes: optionalText('notes'),
      fields: customFields,
      livechat_custom_fields: customFields,
    })
    .transform(({ phone1: _phone1, ...body }): ContactUpdate => body);
}

/** Where selected text goes: a contact field, a dynamic field or a conversation field. */
export interface BindingTarget {
  /** The contact field key, or any name for dynamic and conversation fields (always text). */
  field: string;
  kind: ContactFieldKind;
  current: string | null | undefined;
  max: number;
}
export type BindMode = 'replace' | 'append';
export type BindingResult = { ok: true; value: string } | { ok: false; error: string };

/** Append only for text fields that already have a value. */
export const canAppend = (target: Pick<BindingTarget, 'kind' | 'current'>): boolean =>
  target.kind === 'text' && Boolean(target.current?.trim());

/**
 * Selected-text binding into a field: phone1 is never overwritten; telephone fields
 * take only an E.164 phone that starts with the country code; number fields only digits; append
 * only for text fields with a value. Returns the field's new value or the spec's message.
 */
export function bindSelectedText(target: BindingTarget, selected: string, mode: BindMode): BindingResult {
  const text = selected.trim();
  if (target.field === 'phone1') return { ok: false, error: PHONE1_READ_ONLY };
  if (text === '') return { ok: false, error: REQUIRED };
  if (mode === 'append' && !canAppend(target)) return { ok: false, error: APPEND_NOT_ALLOWED };
  let value: string;
  switch (target.kind) {
    case 'telephone':
      if (!isStrictE164(text)) return { ok: false, error: NOT_E164_PHONE };
      value = text;
      break;
    case 'number': {
      const issue = /^\d+$/.test(text) ? customerIdIssue(text) : ONLY_NUMBERS;
      if (issue) return { ok: false, error: issue };
      value = text;
      break;
    }
    case 'email':
      value = text.toLowerCase();
      if (!isEmail(value)) return { ok: false, error: INVALID_EMAIL };
      break;
    case 'text':
      value = mode === 'append' ? `${target.current!.trim()} ${text}` : text;
      break;
  }
  if (value.length > target.max) return { ok: false, error: maxLengthMessage(target.max) };
  return { ok: true, value };
}
