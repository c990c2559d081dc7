import { CUSTOM_FIELD_MAX, type Contact } from '@atende/contract';
import { CONTACT_FIELDS, contactFieldSpec, type BindingTarget, type ContactFieldKey, type ContactUpdate } from '@atende/core';

export type CustomFieldGroup = 'fields' | 'livechat_custom_fields';

/** A field selected chat text can go to: a contact field, a dynamic contact field, a conversation field. */
export type BindField =
  | { type: 'contact'; key: ContactFieldKey }
  | { type: 'custom'; group: CustomFieldGroup; name: string }
  | { type: 'conversation'; fieldUuid: string; name: string };

/** A stable id for the field picker's options. */
export function bindFieldId(field: BindField): string {
  switch (field.type) {
    case 'contact':
      return `contact:${field.key}`;
    case 'custom':
      return `${field.group}:${field.name}`;
    case 'conversation':
      return `conversation:${field.fieldUuid}`;
  }
}

/** The contact's bindable fields: the fixed ones in panel order, then its dynamic ones. */
export function contactBindFields(contact: Contact): BindField[] {
  return [
    ...CONTACT_FIELDS.map((f): BindField => ({ type: 'contact', key: f.key })),
    ...Object.keys(contact.fields).map((name): BindField => ({ type: 'custom', group: 'fields', name })),
    ...Object.keys(contact.livechat_custom_fields).map((name): BindField => ({ type: 'custom', group: 'livechat_custom_fields', name })),
  ];
}

/** What the binding rule needs to know about a field, given its current value. */
export function bindingTarget(field: BindField, current: string | null | undefined): BindingTarget {
  if (field.type === 'contact') {
    const spec = contactFieldSpec(field.key);
    return { field: field.key, kind: spec.kind, current, max: spec.max };
  }
  return { field: field.name, kind: 'text', current, max: CUSTOM_FIELD_MAX };
}

/** A contact field's value as the panel shows it: text, or null when empty. */
export function contactValue(contact: Contact, field: Exclude<BindField, { type: 'conversation' }>): string | null {
  if (field.type === 'custom') return contact[field.group][field.name] ?? null;
  switch (field.key) {
    case 'organization':
      return contact.organization?.name ?? null;
    case 'customer_id':
      return contact.customer_id === null ? null : String(contact.customer_id);
    case 'phone1':
      return contact.phone1 ?? contact.phone_number;
    default:
      return contact[field.key];
  }
}

/** The PATCH body that stores one bound value (dynamic fields are sent whole: the api replaces the map). */
export function contactPatchFor(
  contact: Contact,
  field: Exclude<BindField, { type: 'conversation' }>,
  value: string,
): Partial<ContactUpdate> {
  if (field.type === 'custom') return { [field.group]: { ...contact[field.group], [field.name]: value } };
  if (field.key === 'customer_id') return { customer_id: Number.parseInt(value, 10) };
  return { [field.key]: value };
}
