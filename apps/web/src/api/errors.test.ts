import { ApiError } from '@atende/sdk';
import { describe, expect, it } from 'vitest';
import { errorText, fieldText, type Translate } from './errors';

const t: Translate = (key) => `t:${key}`;
/** Shows the values `t` was given, or `none` when it was given none. */
const showing =
  (none: string): Translate =>
  (key, values) =>
    `t:${key}:${values ? JSON.stringify(values) : none}`;
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
    const fields = [{ path: 'name', message: 'Name must have at most 120 characters', code: 'field_too_long', params: { max: 120 } }];
    expect(errorText(withBody(400, 'validation_failed', 'Invalid body: name: ...', { fields }), t)).toBe(
      't:Name must have at most 120 characters',
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
  it('words a field by its own failure code, or shows the contract message of a schema check', () => {
    const tWith = showing('{}');
    expect(fieldText({ message: 'Parameter 2 is required', code: 'subscriber_parameter_missing', params: { n: 2 } }, tWith)).toBe(
      't:Parameter {{n}} is required:{"n":2}',
    );
    expect(fieldText({ message: 'Invalid country code', code: 'field_invalid_format', params: { format: 'regex' } }, tWith)).toBe(
      't:Invalid country code:{}',
    );
    expect(fieldText({ message: 'Some words' }, tWith)).toBe('t:Some words:{}');
  });
});
