import { ApiError } from '@atende/sdk';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { errorText } from './errors';

const t = ((key: string) => `t:${key}`) as unknown as TFunction;
const withBody = (status: number, message: string) => new ApiError(status, 'bad_request', message, { error_message: message, code: 'bad_request' });

// spec 000 §8: the server's error_message when present, else 400 'Missing parameters', 403
// 'Invalid credentials', anything else 'Something went wrong'.
describe('errorText', () => {
  it('shows the server message, through the dictionary', () => {
    expect(errorText(withBody(409, 'Email already being used'), t)).toBe('t:Email already being used');
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
    const tWith = ((key: string, values?: Record<string, unknown>) => `t:${key}:${JSON.stringify(values ?? {})}`) as unknown as TFunction;
    const body = { error_message: 'Parameter 3 is required', code: 'subscriber_parameter_missing', params: { n: 3 } };
    expect(errorText(new ApiError(422, 'subscriber_parameter_missing', body.error_message, body), tWith)).toBe('t:Parameter {{n}} is required:{"n":3}');
  });
  it('words a catalogued code without values when the ones sent are not names to strings or numbers', () => {
    const tWith = ((key: string, values?: Record<string, unknown>) => `t:${key}:${JSON.stringify(values ?? null)}`) as unknown as TFunction;
    for (const params of [[3], 'n=3', null, { n: { nested: 3 } }, { n: [3] }, { n: true }]) {
      const body = { error_message: 'Parameter 3 is required', code: 'subscriber_parameter_missing', params };
      expect(errorText(new ApiError(422, 'subscriber_parameter_missing', body.error_message, body), tWith), JSON.stringify(params)).toBe('t:Parameter {{n}} is required:null');
    }
  });
});
