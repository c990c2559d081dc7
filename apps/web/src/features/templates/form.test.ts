import type { Template } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import {
  emptyButton,
  emptyForm,
  fieldErrors,
  fromTemplate,
  toInput,
  variablesOf,
  withButtonsKind,
  withType,
  type TemplateFormState,
} from './form';

const rich = (): TemplateFormState => ({
  ...emptyForm('ch-1'),
  name: 'pedido_pronto',
  type: 'media_interactive',
  header: { enabled: true, format: 'TEXT', text: 'Olá {{1}}' },
  body: 'Pedido {{1}} chega {{2}}',
  footer: { enabled: true, text: 'Equipe' },
  buttons: { enabled: true, kind: 'CALL_TO_ACTION', items: [{ ...emptyButton('URL'), text: 'Rastrear', url: 'https://x.dev/{{1}}' }] },
  examples: { header_text: 'Ana', header_handle: '', body: ['42', 'hoje', 'extra'], urls: ['abc'] },
});

describe('template form state', () => {
  it('starts from the spec defaults', () => {
    expect(emptyForm()).toMatchObject({
      language: 'pt_BR',
      category: 'MARKETING',
      type: 'standard',
      buttons: { kind: 'QUICK_REPLY', enabled: false },
    });
  });

  it('builds the submit payload with only the components on and the examples still used', () => {
    expect(toInput(rich())).toEqual({
      name: 'pedido_pronto',
      category: 'MARKETING',
      language: 'pt_BR',
      components: [
        { type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}', example: { header_text: ['Ana'] } },
        { type: 'BODY', text: 'Pedido {{1}} chega {{2}}', example: { body_text: [['42', 'hoje']] } },
        { type: 'FOOTER', text: 'Equipe' },
        { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Rastrear', url: 'https://x.dev/{{1}}', example: ['abc'] }] },
      ],
    });
    const off = { ...rich(), footer: { enabled: false, text: 'Equipe' } };
    expect(toInput(off).components.map((c) => c.type)).toEqual(['HEADER', 'BODY', 'BUTTONS']);
  });

  it('standard keeps the body only; a new buttons type clears the buttons', () => {
    const standard = withType(rich(), 'standard');
    expect(toInput(standard).components).toEqual([
      { type: 'BODY', text: 'Pedido {{1}} chega {{2}}', example: { body_text: [['42', 'hoje']] } },
    ]);
    expect(standard.header.enabled).toBe(false);
    expect(withButtonsKind(rich(), 'QUICK_REPLY').buttons).toEqual({ enabled: true, kind: 'QUICK_REPLY', items: [] });
  });

  it('round-trips a stored template for editing', () => {
    const input = toInput(rich());
    const template: Template = {
      uuid: 'u',
      name: input.name,
      channel: { uuid: 'ch-1', name: 'WhatsApp', type: 'whatsapp_360dialog' },
      config: { category: 'MARKETING', language: 'pt_BR', status: 'APPROVED', components: input.components, rejected_reason: null },
      created_at: '2026-11-23T00:00:00.000Z',
      updated_at: '2026-11-23T00:00:00.000Z',
    };
    expect(toInput(fromTemplate(template))).toEqual(input);
  });

  it('asks step 2 for the examples of every variable and leaves the media sample to it', () => {
    expect(variablesOf(rich())).toEqual({ header: [1], body: [1, 2], urls: [{ index: 0, used: true }], mediaHeader: false });
    const image = { ...rich(), header: { enabled: true, format: 'IMAGE' as const, text: '' } };
    expect(fieldErrors(image, 'whatsapp_360dialog', 'create', 1)['header.example']).toBeUndefined();
    expect(fieldErrors(image, 'whatsapp_360dialog', 'create', 2)['header.example']).toBe('This field is required');
    expect(fieldErrors({ ...rich(), name: 'Bad' }, 'whatsapp_360dialog', 'create', 1).name).toBe(
      'Name can only contain lower case alphanumeric characters and underscores',
    );
    expect(fieldErrors(rich(), null, 'create', 1).channel).toBe('Channel is required');
  });
});
