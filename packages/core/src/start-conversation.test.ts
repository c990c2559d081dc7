import { describe, expect, it } from 'vitest';
import {
  canStartConversationOn,
  channelsForOutboundStart,
  isTemplateRequiredOnStart,
  newContactFormSchema,
  preselect,
  startConversationBody,
  startConversationFormSchema,
  type OutboundChannel,
} from './start-conversation';

const channel = (type: string, name = type, flagged = false, uuid = `uuid-${name}`): OutboundChannel => ({
  uuid,
  type,
  name,
  template_required_on_outbound_start: flagged,
});
const HASH = 'a3f5c9e1b2d4a6f8c0e1b2d3a4f5c6e7';

const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('start conversation rules', () => {
  // Only channel types whatsapp_360dialog, {hash}, whatsapp_web and custom are offered
  // (the custom API channel has types custom, droz and API).
  // And e-mail, with a subject.
  it('offers only 360dialog, hash, whatsapp_web, custom and e-mail channels', () => {
    for (const type of ['whatsapp_360dialog', 'whatsapp_web', 'custom', 'droz', 'API', HASH, 'email'])
      expect(canStartConversationOn(type)).toBe(true);
    for (const type of [
      'whatsapp',
      'whatsapp_cloud',
      'whatsapp_lion',
      'whatsapp_twilio',
      'livechat',
      'telegram',
      'sms',
      'instagram',
      'messenger',
      'api',
      'abc123',
    ])
      expect(canStartConversationOn(type)).toBe(false);
  });

  it('lists each offered channel once, by name', () => {
    const list = channelsForOutboundStart([
      channel('custom', 'Zeta'),
      channel('telegram', 'Tg'),
      channel('whatsapp_web', 'Alpha'),
      channel('custom', 'Zeta'),
    ]);
    expect(list.map((c) => c.name)).toEqual(['Alpha', 'Zeta']);
  });

  // Template required for 360dialog channels and custom channels flagged
  // template_required_on_outbound_start; otherwise the initial message is required.
  it('requires a template on 360dialog and on flagged custom channels only', () => {
    expect(isTemplateRequiredOnStart(channel('whatsapp_360dialog'))).toBe(true);
    expect(isTemplateRequiredOnStart(channel(HASH))).toBe(true);
    expect(isTemplateRequiredOnStart(channel('custom', 'c', true))).toBe(true);
    expect(isTemplateRequiredOnStart(channel('droz', 'd', true))).toBe(true);
    expect(isTemplateRequiredOnStart(channel('API', 'a', true))).toBe(true);
    expect(isTemplateRequiredOnStart(channel('custom'))).toBe(false);
    expect(isTemplateRequiredOnStart(channel('whatsapp_web', 'w', true))).toBe(false);
  });

  it('requires a subject for a new e-mail, and sends it', () => {
    const email = channel('email', 'Mail');
    const schema = startConversationFormSchema([email]);
    expect(messages(schema.safeParse({ channel_uuid: email.uuid, template_uuid: '', initial_message: 'Olá', subject: ' ' }))).toEqual({
      subject: 'Subject is required',
    });
    expect(schema.safeParse({ channel_uuid: email.uuid, template_uuid: '', initial_message: 'Olá', subject: 'Seu pedido' }).success).toBe(
      true,
    );
    expect(
      startConversationBody({ channel_uuid: email.uuid, template_uuid: '', initial_message: ' Olá ', subject: ' Seu pedido ' }, email),
    ).toEqual({
      channel_uuid: email.uuid,
      initial_message: 'Olá',
      subject: 'Seu pedido',
    });
    // Other channels send no subject.
    const custom = channel('custom', 'Api');
    expect(startConversationBody({ channel_uuid: custom.uuid, template_uuid: '', initial_message: 'Oi', subject: 'x' }, custom)).toEqual({
      channel_uuid: custom.uuid,
      initial_message: 'Oi',
    });
  });

  // A single channel is preselected.
  it('preselects only a single option', () => {
    expect(preselect([channel('custom')])).toBe('uuid-custom');
    expect(preselect([channel('custom'), channel('whatsapp_web')])).toBeNull();
    expect(preselect([])).toBeNull();
  });

  it("answers 'Channel is required', 'Template is required' or 'Initial message is required'", () => {
    const channels = [channel('custom', 'Free'), channel('whatsapp_360dialog', 'Dialog')];
    const schema = startConversationFormSchema(channels);
    expect(messages(schema.safeParse({ channel_uuid: '', template_uuid: '', initial_message: 'hi' }))).toEqual({
      channel_uuid: 'Channel is required',
    });
    expect(messages(schema.safeParse({ channel_uuid: 'uuid-Free', template_uuid: '', initial_message: '  ' }))).toEqual({
      initial_message: 'Initial message is required',
    });
    expect(messages(schema.safeParse({ channel_uuid: 'uuid-Dialog', template_uuid: '', initial_message: 'hi' }))).toEqual({
      template_uuid: 'Template is required',
    });
    expect(schema.safeParse({ channel_uuid: 'uuid-Free', template_uuid: '', initial_message: 'Hello' }).success).toBe(true);
  });

  it('sends the initial message or the template, not both', () => {
    const form = { channel_uuid: 'uuid-custom', template_uuid: 'tpl', initial_message: ' Hello ' };
    expect(startConversationBody(form, channel('custom'))).toEqual({ channel_uuid: 'uuid-custom', initial_message: 'Hello' });
    expect(startConversationBody({ ...form, channel_uuid: 'uuid-whatsapp_360dialog' }, channel('whatsapp_360dialog'), ['Ana'])).toEqual({
      channel_uuid: 'uuid-whatsapp_360dialog',
      template_uuid: 'tpl',
      template_parameters: ['Ana'],
    });
  });
});

// New-contact variant: phone valid for the default calling code, name and organization required.
describe('new contact form', () => {
  const schema = newContactFormSchema('BR');
  it('requires name, organization and a valid phone', () => {
    expect(messages(schema.safeParse({ name: ' ', organization: '', phone1: '' }))).toEqual({
      name: 'Required',
      organization: 'Required',
      phone1: 'Required',
    });
    expect(messages(schema.safeParse({ name: 'Ana', organization: 'Acme', phone1: '123' }))).toEqual({
      phone1: 'Número de telefone inválido',
    });
  });
  it('normalises a national number of the default country to E.164', () => {
    const parsed = schema.safeParse({ name: ' Ana ', organization: 'Acme', phone1: '(11) 98765-4321' });
    expect(parsed.success && parsed.data).toEqual({ name: 'Ana', organization: 'Acme', phone1: '+5511987654321' });
    expect(newContactFormSchema('US').safeParse({ name: 'Bo', organization: 'X', phone1: '(11) 98765-4321' }).success).toBe(false);
  });
});
