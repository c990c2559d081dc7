import { DEFAULT_LIVECHAT_APPEARANCE, fieldCodeOfMessage, livechatValidatorProblem } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import {
  livechatAppearanceProblems,
  livechatEmbedSnippet,
  livechatFieldIssue,
  livechatFieldProblem,
  livechatFieldsProblems,
  livechatValidatorPlan,
  VALIDATORS_OVER_BUDGET,
} from './livechat';

const cpf = {
  key: 'cpf',
  label: 'CPF',
  required: true,
  max_length: 14,
  validator: '\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}',
  validator_message: 'Use 000.000.000-00',
};

// "Livechat channel appearance": custom fields with label, max length and validator regex.
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
  it("words the label's messages by the catalogue, and gives the admin's own message its code", () => {
    expect(fieldCodeOfMessage(livechatFieldProblem(cpf, '')!)).toEqual({ code: 'livechat_field_required', params: { label: 'CPF' } });
    expect(fieldCodeOfMessage(livechatFieldProblem({ ...cpf, validator: null }, 'x'.repeat(15))!)).toEqual({
      code: 'livechat_field_too_long',
      params: { label: 'CPF', max: 14 },
    });
    expect(livechatFieldIssue(cpf, '1')).toEqual({
      message: 'Use 000.000.000-00',
      code: 'livechat_field_pattern_mismatch',
      params: { message: 'Use 000.000.000-00' },
    });
    expect(livechatFieldIssue({ ...cpf, validator_message: null }, '1')).toEqual({ message: 'CPF is invalid' });
    expect(fieldCodeOfMessage(VALIDATORS_OVER_BUDGET)).toEqual({ code: 'validators_over_budget', params: { max: 2000000 } });
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
  // These passed the old nested-quantifier filter, and 28 characters stalled the api
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
  // Each validator compiles within USER_PATTERN_PROGRAM_MAX, and together they ask
  // for at most USER_PATTERN_WORK_MAX (program size × maximum length) per form.
  it('runs validators only within the form’s work budget, in field order, and refuses to save more', () => {
    // `.{0,399}` compiles to 800 instructions: 800 × 2,000 = 1,600,000, so a second such field is over 2,000,000.
    const wide = (key: string, max_length = 2000) => ({
      ...cpf,
      key,
      required: false,
      max_length,
      validator: '.{0,399}',
      validator_message: 'bad',
    });
    expect(
      livechatValidatorPlan([
        wide('a'),
        wide('b'),
        wide('c', 400),
        { ...cpf, key: 'd', validator: null },
        { ...cpf, key: 'e', validator: '(a)\\1' },
      ]),
    ).toEqual(['run', 'over_budget', 'run', 'none', 'unusable']);
    const problems = livechatAppearanceProblems({ ...DEFAULT_LIVECHAT_APPEARANCE, custom_fields: [wide('a'), wide('b'), wide('c', 400)] });
    expect(problems).toEqual([{ path: 'custom_fields.1.validator', message: VALIDATORS_OVER_BUDGET }]);
    expect(VALIDATORS_OVER_BUDGET).toContain('at most 2000000');
    // A stored form over the budget: the skipped validator is not run, the others are.
    const long = 'x'.repeat(450);
    expect(livechatFieldsProblems([wide('a'), wide('b')], { a: long, b: long })).toEqual([
      { path: 'custom_fields.a', message: 'bad', code: 'livechat_field_pattern_mismatch', params: { message: 'bad' } },
    ]);
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
    expect(paths).toEqual(
      expect.arrayContaining(['theme_data.primary_color', 'custom_fields.0.key', 'custom_fields.2.max_length', 'custom_fields.2.key']),
    );
  });
  it('builds an iframe snippet pointing at the widget page', () => {
    expect(livechatEmbedSnippet('https://a.example/', '5f0e')).toContain('src="https://a.example/livechat/5f0e"');
  });
});
