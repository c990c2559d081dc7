import { DEFAULT_LIVECHAT_APPEARANCE, livechatValidatorProblem } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { livechatAppearanceProblems, livechatEmbedSnippet, livechatFieldProblem, livechatFieldsProblems } from './livechat';

const cpf = { key: 'cpf', label: 'CPF', required: true, max_length: 14, validator: '\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}', validator_message: 'Use 000.000.000-00' };

// spec 002 §3 "Livechat channel appearance": custom fields with label, max length and validator regex.
describe('livechat custom fields', () => {
  it('asks for a required field by its label', () => {
    expect(livechatFieldProblem(cpf, '  ')).toBe('CPF is required');
    expect(livechatFieldProblem({ ...cpf, required: false }, '')).toBeNull();
  });
  it('refuses values longer than the maximum length', () => {
    expect(livechatFieldProblem({ ...cpf, validator: null }, 'x'.repeat(15))).toBe('CPF must have at most 14 characters');
  });
  it("answers the field's own message when the validator does not match the whole value", () => {
    expect(livechatFieldProblem(cpf, '123.456.789-0')).toBe('Use 000.000.000-00');
    expect(livechatFieldProblem(cpf, '123.456.789-01')).toBeNull();
    expect(livechatFieldProblem({ ...cpf, validator_message: null }, 'abc')).toBe('CPF is invalid');
  });
  it('names unknown keys and every problem by path', () => {
    expect(livechatFieldsProblems([cpf], { other: 'x' })).toEqual([
      { path: 'custom_fields.cpf', message: 'CPF is required' },
      { path: 'custom_fields.other', message: 'Unknown field' },
    ]);
  });
});

describe('livechat appearance rules', () => {
  it('accepts the default appearance', () => {
    expect(livechatAppearanceProblems(DEFAULT_LIVECHAT_APPEARANCE)).toEqual([]);
  });
  it('refuses validators that do not compile for RE2 or are too long', () => {
    const invalid = 'The validator is not a valid regular expression (back-references and lookarounds are not supported)';
    expect(livechatValidatorProblem('[a-')).toBe(invalid);
    expect(livechatValidatorProblem('(a)\\1')).toBe(invalid);
    expect(livechatValidatorProblem('a(?=b)')).toBe(invalid);
    expect(livechatValidatorProblem('a'.repeat(201))).toMatch(/at most 200/);
    expect(livechatValidatorProblem('\\d{3}(\\.\\d{3}){2}')).toBeNull();
  });
  // Issue 12 item 2: these passed the old nested-quantifier filter, and 28 characters stalled the api
  // for 1.7 s on a backtracking engine; 2,000 would never end. RE2 answers in linear time.
  it('runs catastrophic-backtracking patterns on 2,000-character values, with the right answer', () => {
    const field = (validator: string) => ({ ...cpf, max_length: 2000, validator, validator_message: 'bad' });
    const long = `${'a'.repeat(1999)}!`;
    for (const pattern of ['((a+))+', '(a|a)*', '(a|aa)+', '(.*a){12}']) {
      expect(livechatValidatorProblem(pattern)).toBeNull();
      expect(livechatFieldProblem(field(pattern), long)).toBe('bad');
    }
    expect(livechatFieldProblem(field('(a|aa)+'), 'a'.repeat(2000))).toBeNull();
    expect(livechatFieldProblem(field('(.*a){12}'), 'a'.repeat(2000))).toBeNull();
  });
  it('names each bad field by its path', () => {
    const bad = {
      ...DEFAULT_LIVECHAT_APPEARANCE,
      theme_data: { ...DEFAULT_LIVECHAT_APPEARANCE.theme_data, primary_color: 'blue' },
      custom_fields: [
        { ...cpf, key: 'a b' },
        { ...cpf, key: 'cpf' },
        { ...cpf, key: 'CPF', max_length: 0 },
      ],
    };
    const paths = livechatAppearanceProblems(bad).map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['theme_data.primary_color', 'custom_fields.0.key', 'custom_fields.2.max_length', 'custom_fields.2.key']));
  });
  it('builds an iframe snippet pointing at the widget page', () => {
    expect(livechatEmbedSnippet('https://a.example/', '5f0e')).toContain('src="https://a.example/livechat/5f0e"');
  });
});
