import { describe, expect, it } from 'vitest';
import { CHANNEL_FORMS, channelFormErrors, isRequiredField } from './channelForms';

const form = (type: string) => CHANNEL_FORMS.find((f) => f.type === type)!;

// The form checks the api's own table (contract CHANNEL_REQUIRED_SETTINGS), so it never lets through a
// channel the api refuses, nor asks for what the api makes itself.
describe('channel form checks', () => {
  it('asks each missing required setting, and one of a group of alternatives', () => {
    expect(channelFormErrors(form('sms'), 'SMS', { account_sid: 'AC1' })).toEqual({
      auth_token: 'Required',
      from_number: 'A sender number or a messaging service SID is required',
    });
    expect(channelFormErrors(form('sms'), 'SMS', { account_sid: 'AC1', auth_token: 't', messaging_service_sid: 'MG1' })).toEqual({});
    expect(channelFormErrors(form('email'), ' ', { smtp_host: 'smtp.loja.test' })).toEqual({
      name: 'Required',
      from_address: 'Required',
      password: 'A password or an OAuth refresh token is required',
    });
    expect(
      channelFormErrors(form('email'), 'Mail', { smtp_host: 'smtp.loja.test', from_address: 'a@loja.test', refresh_token: 'r' }),
    ).toEqual({});
  });

  it('does not ask what the api makes (360dialog webhook secret), and marks only single required fields', () => {
    expect(channelFormErrors(form('whatsapp_360dialog'), 'WA', {})).toEqual({ api_key: 'Required' });
    const sms = form('sms');
    const required = sms.fields.filter((f) => isRequiredField(sms, f)).map((f) => f.key);
    expect(required).toEqual(['account_sid', 'auth_token']);
    expect(channelFormErrors(form('livechat'), 'Chat', {})).toEqual({});
  });
});
