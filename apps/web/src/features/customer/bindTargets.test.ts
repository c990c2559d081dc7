import type { Contact } from '@atende/contract';
import { bindSelectedText } from '@atende/core';
import { describe, expect, it } from 'vitest';
import { bindFieldId, bindingTarget, contactBindFields, contactPatchFor, contactValue } from './bindTargets';

const contact: Contact = {
  uuid: '6f1c1c39-8a40-4c1f-9b8e-1d2f3a4b5c6d',
  name: 'Maria',
  phone_number: '+5511912340001',
  phone1: '+5511912340001',
  phone2: null,
  organization: { name: 'Padaria' },
  gov_id: null,
  email: null,
  customer_id: 12,
  zip_code: null,
  address_line_1: 'Rua A',
  address_line_2: null,
  city: null,
  state: null,
  country: null,
  notes: null,
  profile_image: null,
  fields: { plano: 'ouro', pedido: '' },
  livechat_custom_fields: { origem: 'site' },
  dnd_list: [],
  last_conversations_count: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};

// Selected chat text goes into a contact field by the binding rules.
describe('binding targets of a contact', () => {
  it('lists the fixed fields, then the dynamic ones, each with a distinct id', () => {
    const ids = contactBindFields(contact).map(bindFieldId);
    expect(ids.slice(0, 3)).toEqual(['contact:name', 'contact:phone1', 'contact:phone2']);
    expect(ids.slice(-3)).toEqual(['fields:plano', 'fields:pedido', 'livechat_custom_fields:origem']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads current values the way the panel shows them', () => {
    expect(contactValue(contact, { type: 'contact', key: 'organization' })).toBe('Padaria');
    expect(contactValue(contact, { type: 'contact', key: 'customer_id' })).toBe('12');
    expect(contactValue(contact, { type: 'custom', group: 'fields', name: 'plano' })).toBe('ouro');
  });

  it('appends to a text field with a value, not to an empty dynamic field', () => {
    const address = { type: 'contact', key: 'address_line_1' } as const;
    expect(bindSelectedText(bindingTarget(address, contactValue(contact, address)), '120', 'append')).toEqual({
      ok: true,
      value: 'Rua A 120',
    });
    const empty = { type: 'custom', group: 'fields', name: 'pedido' } as const;
    expect(bindSelectedText(bindingTarget(empty, contactValue(contact, empty)), '120', 'append').ok).toBe(false);
    expect(bindingTarget({ type: 'contact', key: 'phone2' }, null).kind).toBe('telephone');
  });

  it('patches one field, sending a dynamic map whole and the customer id as a number', () => {
    expect(contactPatchFor(contact, { type: 'contact', key: 'city' }, 'Campinas')).toEqual({ city: 'Campinas' });
    expect(contactPatchFor(contact, { type: 'contact', key: 'customer_id' }, '4711')).toEqual({ customer_id: 4711 });
    expect(contactPatchFor(contact, { type: 'custom', group: 'fields', name: 'pedido' }, '99')).toEqual({
      fields: { plano: 'ouro', pedido: '99' },
    });
  });
});
