import { ApiError } from '@atende/sdk';
import { describe, expect, it } from 'vitest';
import { pt } from '../i18n/pt';
import { errorText, fieldText, formMessageText, type Translate } from './errors';

const t: Translate = (key) => `t:${key}`;
/** Shows the values `t` was given, or `none` when it was given none. */
const showing =
  (none: string): Translate =>
  (key, values) =>
    `t:${key}:${values ? JSON.stringify(values) : none}`;
/** The Portuguese dictionary, as i18next reads it: a phrase's entry (else the phrase) with its values filled in. */
const tPt: Translate = (key, values) => (pt[key] ?? key).replace(/\{\{(\w+)\}\}/g, (all, name: string) => String(values?.[name] ?? all));
const withBody = (status: number, code: string, message: string, extra: object = {}) =>
  new ApiError(status, 'unknown', message, { error_message: message, code, ...extra });

// Every failure is worded by its code; an answer that is no ErrorBody: 400 'Missing parameters', 403
// 'Invalid credentials', anything else 'Something went wrong'.
describe('errorText', () => {
  it('words the code, not the server text', () => {
    expect(errorText(withBody(409, 'user_email_taken', 'Email already being used'), t)).toBe('t:Email already being used');
    expect(errorText(withBody(404, 'bot_not_found', 'any words of the server'), t)).toBe('t:Bot not found');
    // An unknown code is no ErrorBody this client knows: the fallback by status.
    expect(errorText(withBody(409, 'some_new_code', 'Words of a newer server'), t)).toBe('t:Something went wrong');
  });
  it('words a schema refusal by its first field', () => {
    const fields = [{ path: 'name', message: 'Name must have at most 120 characters', code: 'user_name_too_long' }];
    expect(errorText(withBody(400, 'validation_failed', 'Invalid body: name: ...', { fields }), t)).toBe(
      't:Name must have at most 120 characters',
    );
    const derived = [
      { path: 'name', message: 'Too big: expected string to have <=120 characters', code: 'field_too_long', params: { max: 120 } },
    ];
    expect(errorText(withBody(400, 'validation_failed', 'x', { fields: derived }), showing('{}'))).toBe(
      't:{{max}} characters maximum:{"max":120}',
    );
    const coded = [{ path: 'name', message: 'There is already a bot with this name', code: 'bot_name_taken' }];
    expect(errorText(withBody(400, 'validation_failed', 'x', { fields: coded }), t)).toBe('t:There is already a bot with this name');
    expect(errorText(withBody(400, 'validation_failed', 'x'), t)).toBe('t:Missing parameters');
  });
  it('falls back by status when the answer has no error_message', () => {
    expect(errorText(new ApiError(400, 'unknown', 'Bad Request', {}), t)).toBe('t:Missing parameters');
    expect(errorText(new ApiError(403, 'unknown', 'Forbidden', undefined), t)).toBe('t:Invalid credentials');
    expect(errorText(new ApiError(502, 'unknown', 'Bad Gateway', undefined), t)).toBe('t:Something went wrong');
  });
  it('does not show the transport error of a failed network call', () => {
    expect(errorText(new ApiError(0, 'network', 'Network error'), t)).toBe('t:Something went wrong');
  });
  // The error catalogue: a catalogued code is worded by the web in the UI language, with the server's values.
  it('words a catalogued code itself, with the values the server sent', () => {
    const tWith = showing('{}');
    const body = { error_message: 'Parameter 3 is required', code: 'subscriber_parameter_missing', params: { n: 3 } };
    expect(errorText(new ApiError(422, 'subscriber_parameter_missing', body.error_message, body), tWith)).toBe(
      't:Parameter {{n}} is required:{"n":3}',
    );
  });
  it('words a catalogued code without values when the ones sent are not names to strings or numbers', () => {
    const tWith = showing('null');
    for (const params of [[3], 'n=3', null, { n: { nested: 3 } }, { n: [3] }, { n: true }]) {
      const body = { error_message: 'Parameter 3 is required', code: 'subscriber_parameter_missing', params };
      expect(errorText(new ApiError(422, 'subscriber_parameter_missing', body.error_message, body), tWith), JSON.stringify(params)).toBe(
        't:Parameter {{n}} is required:null',
      );
    }
  });
  it("words every field by its code, never by the server text; a field without a code by its message's code, else as invalid", () => {
    const tWith = showing('{}');
    expect(fieldText({ message: 'Parameter 2 is required', code: 'subscriber_parameter_missing', params: { n: 2 } }, tWith)).toBe(
      't:Parameter {{n}} is required:{"n":2}',
    );
    expect(fieldText({ message: 'any words', code: 'field_invalid_format', params: { format: 'regex' } }, tWith)).toBe(
      't:Invalid format:{"format":"regex"}',
    );
    expect(fieldText({ message: 'any words', code: 'country_code_invalid' }, tWith)).toBe('t:Invalid country code:{}');
    // No code: the catalogue code of its message, else the generic wording, never the English text.
    expect(fieldText({ message: 'At most 20 answers' }, tWith)).toBe('t:At most {{max}} answers:{"max":20}');
    expect(fieldText({ message: 'Some words' }, tWith)).toBe('t:Invalid value:{}');
  });
  it("words a schema's own message in Portuguese by its code, with the values it carries", () => {
    // The server's English text is not what is shown: the code is.
    expect(fieldText({ message: 'whatever the server wrote', code: 'state_invalid' }, tPt)).toBe('Estado inválido');
    expect(fieldText({ message: 'x', code: 'contact_identity_required' }, tPt)).toBe('contact.phone ou contact.identifier é obrigatório');
    expect(fieldText({ message: 'x', code: 'field_too_long', params: { max: 80 } }, tPt)).toBe('No máximo 80 caracteres');
    const body = { fields: [{ path: 'state', message: 'Change the password or the state, not both', code: 'password_or_state' }] };
    expect(errorText(withBody(400, 'validation_failed', 'Invalid body: state: ...', body), tPt)).toBe(
      'Altere a senha ou o estado, não os dois',
    );
  });
  it("words a form's message of a contract schema by its code, in either language", () => {
    expect(formMessageText('Invalid state', tPt)).toBe('Estado inválido');
    expect(formMessageText('80 characters maximum', tPt)).toBe('No máximo 80 caracteres');
    expect(formMessageText('The title must have at most 60 characters', tPt)).toBe('O título deve ter no máximo 60 caracteres');
    const en: Translate = (key, values) => key.replace(/\{\{(\w+)\}\}/g, (all, name: string) => String(values?.[name] ?? all));
    expect(formMessageText('80 characters maximum', en)).toBe('80 characters maximum');
    // Not a catalogue message: a phrase of the dictionary.
    expect(formMessageText('Required', tPt)).toBe('Obrigatório');
    expect(formMessageText('The passwords must match', tPt)).toBe('As senhas devem ser iguais');
  });
  it("words the shared rules' messages (packages/core) by their code, with the values they carry", () => {
    expect(formMessageText('At most 10 answers', tPt)).toBe('No máximo 10 respostas');
    expect(formMessageText('Maximum of 3 quick reply buttons', tPt)).toBe('Máximo de 3 botões de resposta rápida');
    expect(formMessageText('Variables must be numbered in sequence starting at {{1}}', tPt)).toBe(
      'As variáveis devem ser numeradas em sequência a partir de {{1}}',
    );
    expect(formMessageText('CPF is required', tPt)).toBe('CPF é obrigatório');
    expect(formMessageText('Name is required', tPt)).toBe('O nome é obrigatório');
    // A livechat field's own validator message is the admin's words: shown as written.
    const own = {
      message: 'Use 000.000.000-00',
      code: 'livechat_field_pattern_mismatch' as const,
      params: { message: 'Use 000.000.000-00' },
    };
    expect(fieldText(own, tPt)).toBe('Use 000.000.000-00');
  });
});
