import type { Contact } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import {
  APPEND_NOT_ALLOWED,
  bindSelectedText,
  canAppend,
  contactFormSchema,
  contactFormValues,
  INVALID_EMAIL,
  INVALID_PHONE,
  maxLengthMessage,
  NOT_E164_PHONE,
  NUMBER_TOO_LARGE,
  ONLY_NUMBERS,
  PHONE1_READ_ONLY,
  REQUIRED,
  type BindingTarget,
  type ContactFormValues,
} from './contact-form';

const contact: Contact = {
  uuid: '6f1c1c39-8a40-4c1f-9b8e-1d2f3a4b5c6d',
  name: 'Maria Souza',
  phone_number: '+5511912340001',
  phone1: '+5511912340001',
  phone2: null,
  organization: { name: 'Padaria' },
  gov_id: null,
  email: 'maria@exemplo.com',
  customer_id: 42,
  zip_code: null,
  address_line_1: null,
  address_line_2: null,
  city: 'São Paulo',
  state: null,
  country: null,
  notes: null,
  profile_image: null,
  fields: { plano: 'ouro', 'site.origem': 'blog' },
  livechat_custom_fields: {},
  dnd_list: [],
  last_conversations_count: 1,
  created_at: '2025-01-01T00:00:00.000Z',
};

const form = (patch: Partial<ContactFormValues> = {}): ContactFormValues => ({ ...contactFormValues(contact), ...patch });
const errorsOf = (values: ContactFormValues) => {
  const result = contactFormSchema().safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
};

describe('customer details form', () => {
  it('starts from the contact, with dynamic fields as rows so names with dots stay intact', () => {
    const values = contactFormValues(contact);
    expect(values).toMatchObject({
      name: 'Maria Souza',
      phone1: '+5511912340001',
      phone2: '',
      organization: 'Padaria',
      customer_id: '42',
      city: 'São Paulo',
      notes: '',
    });
    expect(values.fields).toEqual([
      { key: 'plano', value: 'ouro' },
      { key: 'site.origem', value: 'blog' },
    ]);
  });

  it('produces the PATCH body: phone1 left out (read-only), empty texts as null, records rebuilt', () => {
    const body = contactFormSchema().parse(form({ city: '  ', notes: ' cliente antigo ' }));
    expect(body).not.toHaveProperty('phone1');
    expect(body).toMatchObject({
      name: 'Maria Souza',
      organization: 'Padaria',
      city: null,
      notes: 'cliente antigo',
      phone2: null,
      customer_id: 42,
    });
    expect(body.fields).toEqual({ plano: 'ouro', 'site.origem': 'blog' });
    expect(body.livechat_custom_fields).toEqual({});
  });

  it("requires name and organization with 'Required'", () => {
    expect(errorsOf(form({ name: ' ', organization: '' }))).toEqual({ name: REQUIRED, organization: REQUIRED });
  });

  it("lowercases the e-mail and refuses an invalid one with 'Please insert a valid e-mail'", () => {
    expect(contactFormSchema().parse(form({ email: ' Maria@Exemplo.COM ' })).email).toBe('maria@exemplo.com');
    expect(contactFormSchema().parse(form({ email: '' })).email).toBeNull();
    expect(errorsOf(form({ email: 'maria@' }))).toEqual({ email: INVALID_EMAIL });
  });

  it("reads the customer id as an integer and refuses anything but digits ('Campo aceita somente números')", () => {
    expect(contactFormSchema().parse(form({ customer_id: ' 0123 ' })).customer_id).toBe(123);
    expect(contactFormSchema().parse(form({ customer_id: '' })).customer_id).toBeNull();
    expect(errorsOf(form({ customer_id: '12a' }))).toEqual({ customer_id: ONLY_NUMBERS });
    expect(errorsOf(form({ customer_id: '1.5' }))).toEqual({ customer_id: ONLY_NUMBERS });
    expect(errorsOf(form({ customer_id: '9999999999' }))).toEqual({ customer_id: NUMBER_TOO_LARGE });
  });

  it("accepts phone2 valid for the default country BR, normalised to E.164, else 'Número de telefone inválido'", () => {
    expect(contactFormSchema().parse(form({ phone2: '(11) 3333-4444' })).phone2).toBe('+551133334444');
    expect(contactFormSchema().parse(form({ phone2: '+1 415 555 2671' })).phone2).toBe('+14155552671');
    expect(errorsOf(form({ phone2: '123' }))).toEqual({ phone2: INVALID_PHONE });
    // A US tenant reads national numbers as US numbers.
    expect(contactFormSchema('US').parse(form({ phone2: '415 555 2671' })).phone2).toBe('+14155552671');
  });

  it("limits custom field values to 2000 characters ('Máximo de 2000 caracteres')", () => {
    expect(contactFormSchema().safeParse(form({ fields: [{ key: 'plano', value: 'x'.repeat(2000) }] })).success).toBe(true);
    expect(errorsOf(form({ fields: [{ key: 'plano', value: 'x'.repeat(2001) }] }))).toEqual({
      'fields.0.value': 'Máximo de 2000 caracteres',
    });
    expect(maxLengthMessage(2000)).toBe('Máximo de 2000 caracteres');
  });
});

describe('selected-text binding', () => {
  const target = (patch: Partial<BindingTarget>): BindingTarget => ({ field: 'city', kind: 'text', current: null, max: 120, ...patch });

  it("never overwrites phone1 ('Telefone 1 não pode ser editado')", () => {
    expect(bindSelectedText(target({ field: 'phone1', kind: 'telephone' }), '+5511912340002', 'replace')).toEqual({
      ok: false,
      error: PHONE1_READ_ONLY,
    });
  });

  it('accepts in a telephone field only an E.164 phone that starts with the country code', () => {
    const phone2 = target({ field: 'phone2', kind: 'telephone', max: 32 });
    expect(bindSelectedText(phone2, ' +5511933334444 ', 'replace')).toEqual({ ok: true, value: '+5511933334444' });
    expect(bindSelectedText(phone2, '11933334444', 'replace')).toEqual({ ok: false, error: NOT_E164_PHONE });
    expect(bindSelectedText(phone2, '+55 11 93333-4444', 'replace')).toEqual({ ok: false, error: NOT_E164_PHONE });
  });

  it("accepts in a number field only digits ('Campo aceita somente números')", () => {
    const customerId = target({ field: 'customer_id', kind: 'number', max: 10 });
    expect(bindSelectedText(customerId, '4711', 'replace')).toEqual({ ok: true, value: '4711' });
    expect(bindSelectedText(customerId, 'nº 4711', 'replace')).toEqual({ ok: false, error: ONLY_NUMBERS });
    expect(bindSelectedText(customerId, '-1', 'replace')).toEqual({ ok: false, error: ONLY_NUMBERS });
  });

  it('appends only to a text field that already has a value', () => {
    expect(canAppend({ kind: 'text', current: 'Rua A' })).toBe(true);
    expect(canAppend({ kind: 'text', current: ' ' })).toBe(false);
    expect(canAppend({ kind: 'number', current: '12' })).toBe(false);
    expect(bindSelectedText(target({ current: 'Rua A,' }), '120', 'append')).toEqual({ ok: true, value: 'Rua A, 120' });
    expect(bindSelectedText(target({ current: '' }), '120', 'append')).toEqual({ ok: false, error: APPEND_NOT_ALLOWED });
    expect(bindSelectedText(target({ field: 'customer_id', kind: 'number', current: '12', max: 10 }), '3', 'append')).toEqual({
      ok: false,
      error: APPEND_NOT_ALLOWED,
    });
    expect(bindSelectedText(target({ current: 'Rua A' }), 'Campinas', 'replace')).toEqual({ ok: true, value: 'Campinas' });
  });

  it('lowercases and checks an e-mail, and keeps within the field length', () => {
    expect(bindSelectedText(target({ field: 'email', kind: 'email', max: 254 }), 'Ana@Exemplo.com', 'replace')).toEqual({
      ok: true,
      value: 'ana@exemplo.com',
    });
    expect(bindSelectedText(target({ field: 'email', kind: 'email', max: 254 }), 'ana at exemplo', 'replace')).toEqual({
      ok: false,
      error: INVALID_EMAIL,
    });
    expect(bindSelectedText(target({ field: 'plano', max: 2000, current: 'x'.repeat(1995) }), 'abcdef', 'append')).toEqual({
      ok: false,
      error: maxLengthMessage(2000),
    });
  });
});
