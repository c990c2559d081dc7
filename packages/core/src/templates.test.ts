import type { TemplateButton, TemplateComponent, TemplateInput } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import {
  FORM_TEMPLATE_LANGUAGES,
  TEMPLATE_LANGUAGES,
  isTemplateChannel,
  renderTemplateText,
  templateBodyFor,
  templateIssues,
  templateParameterNames,
  templateStatusTone,
  templateTypeOf,
  templateVariables,
  withoutUnusedExamples,
  type TemplateIssue,
} from './templates';

type Mode = 'create' | 'edit';
const body = (text: string): TemplateComponent => ({ type: 'BODY', text });
const header = (h: Omit<Extract<TemplateComponent, { type: 'HEADER' }>, 'type'>): TemplateComponent => ({ type: 'HEADER', ...h });
const footer = (text: string): TemplateComponent => ({ type: 'FOOTER', text });
const buttons = (...list: TemplateButton[]): TemplateComponent => ({ type: 'BUTTONS', buttons: list });
const quick = (...texts: string[]): TemplateComponent => buttons(...texts.map((text): TemplateButton => ({ type: 'QUICK_REPLY', text })));
const url = (text: string, u?: string): TemplateButton => ({ type: 'URL', text, ...(u === undefined ? {} : { url: u }) });
const phone = (text: string, n?: string): TemplateButton => ({
  type: 'PHONE_NUMBER',
  text,
  ...(n === undefined ? {} : { phone_number: n }),
});
const input = (components: TemplateComponent[], overrides: Partial<TemplateInput> = {}): TemplateInput => ({
  name: 'boas_vindas',
  category: 'MARKETING',
  language: 'pt_BR',
  components,
  ...overrides,
});
const issues = (i: TemplateInput, channelType: string | null = 'whatsapp_360dialog', mode: Mode = 'create') =>
  templateIssues(i, { channelType, mode });

interface RuleCase {
  rule: string;
  failing: TemplateInput;
  passing: TemplateInput;
  expected: TemplateIssue;
  channelType?: string | null;
  passingChannelType?: string | null;
  mode?: Mode;
}

// The template form's rules and limits: each rule breaks on `failing` and holds on `passing`.
const rules: RuleCase[] = [
  {
    rule: 'channel is required',
    failing: input([body('x')]),
    channelType: null,
    passingChannelType: 'whatsapp_360dialog',
    passing: input([body('x')]),
    expected: { path: 'channel', message: 'Channel is required' },
  },
  {
    rule: 'an empty channel type counts as no channel',
    failing: input([body('x')]),
    channelType: '',
    passingChannelType: 'custom',
    passing: input([body('x')]),
    expected: { path: 'channel', message: 'Channel is required' },
  },
  {
    rule: 'only whatsapp_360dialog, {hash}, whatsapp_web and custom channels take templates',
    failing: input([body('x')]),
    channelType: 'telegram',
    passingChannelType: 'whatsapp_web',
    passing: input([body('x')]),
    expected: { path: 'channel', message: 'This channel does not support templates' },
  },
  {
    rule: 'name is required',
    failing: input([body('x')], { name: '' }),
    passing: input([body('x')], { name: 'a' }),
    expected: { path: 'name', message: 'This field is required' },
  },
  {
    rule: 'name is lower-case alphanumerics with single underscores',
    failing: input([body('x')], { name: 'Boas_vindas' }),
    passing: input([body('x')], { name: 'boas_vindas_2' }),
    expected: { path: 'name', message: 'Name can only contain lower case alphanumeric characters and underscores' },
  },
  {
    rule: 'name has no double underscore',
    failing: input([body('x')], { name: 'boas__vindas' }),
    passing: input([body('x')], { name: 'boas_vindas' }),
    expected: { path: 'name', message: 'Name can only contain lower case alphanumeric characters and underscores' },
  },
  {
    rule: 'name has no leading or trailing underscore',
    failing: input([body('x')], { name: '_boas_' }),
    passing: input([body('x')], { name: 'boas' }),
    expected: { path: 'name', message: 'Name can only contain lower case alphanumeric characters and underscores' },
  },
  {
    rule: 'name at most 512',
    failing: input([body('x')], { name: 'n'.repeat(513) }),
    passing: input([body('x')], { name: 'n'.repeat(512) }),
    expected: { path: 'name', message: '512 characters maximum' },
  },
  {
    rule: 'language is a WhatsApp locale',
    failing: input([body('x')], { language: 'pt' }),
    passing: input([body('x')], { language: 'pt_PT' }),
    expected: { path: 'language', message: 'Invalid language' },
  },
  {
    rule: 'text header is required',
    failing: input([header({ format: 'TEXT', text: ' ' }), body('x')]),
    passing: input([header({ format: 'TEXT', text: 'Oi' }), body('x')]),
    expected: { path: 'header.text', message: 'This field is required' },
  },
  {
    rule: 'header at most 60',
    failing: input([header({ format: 'TEXT', text: 'h'.repeat(61) }), body('x')]),
    passing: input([header({ format: 'TEXT', text: 'h'.repeat(60) }), body('x')]),
    expected: { path: 'header.text', message: '60 characters maximum' },
  },
  {
    rule: 'header allows one variable',
    failing: input([header({ format: 'TEXT', text: '{{1}} {{2}}' }), body('x')]),
    passing: input([header({ format: 'TEXT', text: '{{1}} e {{1}}' }), body('x')]),
    expected: { path: 'header.text', message: 'The header allows one variable' },
  },
  {
    rule: 'header variable is {{1}}',
    failing: input([header({ format: 'TEXT', text: 'Oi {{2}}' }), body('x')]),
    passing: input([header({ format: 'TEXT', text: 'Oi {{1}}' }), body('x')]),
    expected: { path: 'header.text', message: 'Variables must be numbered in sequence starting at {{1}}' },
  },
  {
    rule: 'media header needs a sample',
    failing: input([header({ format: 'IMAGE' }), body('x')]),
    passing: input([header({ format: 'IMAGE', example: { header_handle: ['https://cdn/a.png'] } }), body('x')]),
    expected: { path: 'header.example', message: 'This field is required' },
  },
  {
    rule: 'media header sample is not blank',
    failing: input([header({ format: 'DOCUMENT', example: { header_handle: [''] } }), body('x')]),
    passing: input([header({ format: 'LOCATION' }), body('x')]),
    expected: { path: 'header.example', message: 'This field is required' },
  },
  {
    rule: 'video header needs a sample',
    failing: input([header({ format: 'VIDEO', example: { header_handle: [] } }), body('x')]),
    passing: input([header({ format: 'VIDEO', example: { header_handle: ['h:1'] } }), body('x')]),
    expected: { path: 'header.example', message: 'This field is required' },
  },
  {
    rule: 'footer is required',
    failing: input([body('x'), footer('')]),
    passing: input([body('x'), footer('Equipe')]),
    expected: { path: 'footer.text', message: 'This field is required' },
  },
  {
    rule: 'footer at most 60',
    failing: input([body('x'), footer('f'.repeat(61))]),
    passing: input([body('x'), footer('f'.repeat(60))]),
    expected: { path: 'footer.text', message: '60 characters maximum' },
  },
  {
    rule: 'body is required',
    failing: input([body('  ')]),
    passing: input([body('x')]),
    expected: { path: 'body.text', message: 'This field is required' },
  },
  {
    rule: 'body at most 1024',
    failing: input([body('b'.repeat(1025))]),
    passing: input([body('b'.repeat(1024))]),
    expected: { path: 'body.text', message: '1024 maximum characters' },
  },
  {
    rule: 'body variables numbered without gaps',
    failing: input([body('{{1}} {{3}}')]),
    passing: input([body('{{2}} {{1}} {{2}}')]),
    expected: { path: 'body.text', message: 'Variables must be numbered in sequence starting at {{1}}' },
  },
  {
    rule: 'body variables start at {{1}}',
    failing: input([body('{{0}}')]),
    passing: input([body('{{1}}')]),
    expected: { path: 'body.text', message: 'Variables must be numbered in sequence starting at {{1}}' },
  },
  {
    rule: 'exactly one body',
    failing: input([footer('x')]),
    passing: input([body('x'), footer('x')]),
    expected: { path: 'components', message: 'Invalid components' },
  },
  {
    rule: 'at most one of each component',
    failing: input([body('x'), body('y')]),
    passing: input([header({ format: 'TEXT', text: 'h' }), body('x'), footer('f'), quick('a')]),
    expected: { path: 'components', message: 'Invalid components' },
  },
  {
    rule: 'enabled buttons need at least one',
    failing: input([body('x'), buttons()]),
    passing: input([body('x'), quick('Sim')]),
    expected: { path: 'buttons', message: 'At least one button is required' },
  },
  {
    rule: 'button label is required',
    failing: input([body('x'), quick('')]),
    passing: input([body('x'), quick('Sim')]),
    expected: { path: 'buttons.0.text', message: 'This field is required' },
  },
  {
    rule: 'button label at most 25',
    failing: input([body('x'), quick('ok', 'l'.repeat(26))]),
    passing: input([body('x'), quick('ok', 'l'.repeat(25))]),
    expected: { path: 'buttons.1.text', message: '25 characters maximum' },
  },
  {
    rule: 'button label has no dot',
    failing: input([body('x'), quick('Ok.')]),
    passing: input([body('x'), quick('Ok!')]),
    expected: { path: 'buttons.0.text', message: 'Pontos não são permitidos' },
  },
  {
    rule: 'URL button needs a url',
    failing: input([body('x'), buttons(url('Site'))]),
    passing: input([body('x'), buttons(url('Site', 'https://atende.dev'))]),
    expected: { path: 'buttons.0.url', message: 'This field is required' },
  },
  {
    rule: 'url at most 2000',
    failing: input([body('x'), buttons(url('Site', 'u'.repeat(2001)))]),
    passing: input([body('x'), buttons(url('Site', `https://a.dev/${'u'.repeat(1986)}`))]),
    expected: { path: 'buttons.0.url', message: '2000 characters maximum' },
  },
  // Only https pages behind a template's URL button.
  {
    rule: 'URL button is https',
    failing: input([body('x'), buttons(url('Site', 'javascript:alert(1)'))]),
    passing: input([body('x'), buttons(url('Site', 'https://atende.dev/promo'))]),
    expected: { path: 'buttons.0.url', message: 'The button URL must start with https://' },
  },
  {
    rule: 'URL button is not plain http',
    failing: input([body('x'), buttons(url('Site', 'http://atende.dev'))]),
    passing: input([body('x'), buttons(url('Site', 'HTTPS://atende.dev'))]),
    expected: { path: 'buttons.0.url', message: 'The button URL must start with https://' },
  },
  {
    rule: 'phone button needs a number',
    failing: input([body('x'), buttons(phone('Ligar', ' '))]),
    passing: input([body('x'), buttons(phone('Ligar', '+5511999999999'))]),
    expected: { path: 'buttons.0.phone_number', message: 'This field is required' },
  },
  {
    rule: 'phone number at most 20',
    failing: input([body('x'), buttons(phone('Ligar', '1'.repeat(21)))]),
    passing: input([body('x'), buttons(phone('Ligar', '1'.repeat(20)))]),
    expected: { path: 'buttons.0.phone_number', message: '20 characters maximum' },
  },
  {
    rule: 'quick replies and call to actions are not mixed',
    failing: input([body('x'), buttons(url('a', 'https://a'), { type: 'QUICK_REPLY', text: 'b' })]),
    passing: input([body('x'), buttons(url('a', 'https://a'), phone('b', '+5511'))]),
    expected: { path: 'buttons', message: 'Quick reply and call to action buttons cannot be mixed' },
  },
  {
    rule: 'at most 3 quick replies',
    failing: input([body('x'), quick('a', 'b', 'c', 'd')]),
    passing: input([body('x'), quick('a', 'b', 'c')]),
    expected: { path: 'buttons', message: 'Maximum of 3 quick reply buttons' },
  },
  {
    rule: 'at most 2 call to actions',
    failing: input([body('x'), buttons(url('a', 'https://a'), phone('b', '1'), phone('c', '2'))]),
    passing: input([body('x'), buttons(phone('b', '1'), url('a', 'https://a'))]),
    expected: { path: 'buttons', message: 'Maximum of 2 call to action buttons' },
  },
  {
    rule: 'one URL button',
    failing: input([body('x'), buttons(url('a', 'https://a'), url('b', 'https://b'))]),
    passing: input([body('x'), buttons(url('a', 'https://a'))]),
    expected: { path: 'buttons', message: 'Only one button of each call to action type' },
  },
  {
    rule: 'one phone button',
    failing: input([body('x'), buttons(phone('a', '1'), phone('b', '2'))]),
    passing: input([body('x'), buttons(phone('a', '1'))]),
    expected: { path: 'buttons', message: 'Only one button of each call to action type' },
  },
  {
    rule: 'authentication is not offered on create',
    failing: input([body('x')], { category: 'AUTHENTICATION' }),
    passing: input([body('x')], { category: 'UTILITY' }),
    expected: { path: 'category', message: 'Authentication templates cannot be created here' },
  },
  {
    rule: 'authentication templates cannot be edited',
    mode: 'edit',
    failing: input([body('x')], { category: 'AUTHENTICATION' }),
    passing: input([body('x')], { category: 'MARKETING' }),
    expected: { path: 'category', message: 'Templates da categoria Autenticação não podem ser editados' },
  },
  {
    rule: 'WhatsApp Web takes standard templates only',
    channelType: 'whatsapp_web',
    failing: input([body('x'), footer('f')]),
    passing: input([body('Oi {{1}}')]),
    expected: { path: 'type', message: 'WhatsApp Web channels only support standard templates' },
  },
];

describe('template rules', () => {
  it('accepts a complete template', () => {
    expect(
      issues(input([header({ format: 'TEXT', text: 'Oi {{1}}' }), body('Pedido {{1}} e {{2}}'), footer('Equipe'), quick('Sim', 'Não')])),
    ).toEqual([]);
  });

  it.each(rules)('$rule', ({ failing, passing, expected, channelType = 'whatsapp_360dialog', passingChannelType, mode = 'create' }) => {
    expect(issues(failing, channelType, mode)).toContainEqual(expected);
    expect(issues(passing, passingChannelType === undefined ? channelType : passingChannelType, mode)).toEqual([]);
  });

  it('reports each broken field once, at its own path', () => {
    const found = issues(input([header({ format: 'TEXT', text: '' }), body(''), footer(''), quick('', 'a.')], { name: '' }), null);
    expect(found).toEqual([
      { path: 'channel', message: 'Channel is required' },
      { path: 'name', message: 'This field is required' },
      { path: 'header.text', message: 'This field is required' },
      { path: 'body.text', message: 'This field is required' },
      { path: 'footer.text', message: 'This field is required' },
      { path: 'buttons.0.text', message: 'This field is required' },
      { path: 'buttons.1.text', message: 'Pontos não são permitidos' },
    ]);
  });

  it('offers the spec channels, {hash} provider channels and the custom API types included', () => {
    expect(
      ['whatsapp_360dialog', '{hash}', 'whatsapp_web', 'custom', 'droz', 'API', '5f1d7c3e9a2b4c6d8e0f1a2b'].every(isTemplateChannel),
    ).toBe(true);
    expect(['telegram', 'whatsapp_cloud', 'livechat', 'whatsapp'].some(isTemplateChannel)).toBe(false);
    expect(issues(input([body('x')]), '5f1d7c3e9a2b4c6d8e0f1a2b')).toEqual([]);
  });

  it('knows the WhatsApp locales and offers only pt_BR in the form', () => {
    expect(TEMPLATE_LANGUAGES).toHaveLength(71);
    expect(TEMPLATE_LANGUAGES).toEqual(
      expect.arrayContaining(['pt_BR', 'en', 'en_US', 'es', 'es_MX', 'fr', 'de', 'it', 'zh_CN', 'ar', 'hi', 'ru']),
    );
    expect(FORM_TEMPLATE_LANGUAGES).toEqual(['pt_BR']);
  });
});

describe('template helpers', () => {
  it('finds the distinct variables in order of first appearance', () => {
    expect(templateVariables('{{2}} e {{1}} e {{2}}')).toEqual([2, 1]);
    expect(templateVariables('sem variáveis {1} {{a}}')).toEqual([]);
  });

  it('renders parameters and keeps the placeholders of empty ones', () => {
    expect(renderTemplateText('Olá {{1}}, pedido {{2}}', ['Ana', ''])).toBe('Olá Ana, pedido {{2}}');
    expect(renderTemplateText('{{1}} {{2}} {{3}} {{1}}', [null, undefined, 'c'])).toBe('{{1}} {{2}} c {{1}}');
    expect(renderTemplateText('Olá {{1}}', [])).toBe('Olá {{1}}');
  });

  it('tells the type: standard is a body and nothing else', () => {
    expect(templateTypeOf([body('x')])).toBe('standard');
    expect(templateTypeOf([body('x'), footer('f')])).toBe('media_interactive');
    expect(templateTypeOf([header({ format: 'IMAGE' }), body('x')])).toBe('media_interactive');
  });

  it('gives the status tone, whatever the case', () => {
    expect(['APPROVED', 'approved'].map(templateStatusTone)).toEqual(['online', 'online']);
    expect(['PENDING', 'in_appeal', 'PENDING_DELETION'].map(templateStatusTone)).toEqual(['paused', 'paused', 'paused']);
    expect(['REJECTED', 'PAUSED', 'DISABLED', 'DELETED', 'LIMIT_EXCEEDED', 'unknown'].map(templateStatusTone)).toEqual(
      Array(6).fill('offline'),
    );
  });

  it('drops examples no longer used before submit', () => {
    const cleaned = withoutUnusedExamples(
      input([
        header({ format: 'TEXT', text: 'Sem variável', example: { header_text: ['x'], header_handle: ['h'] } }),
        { type: 'BODY', text: 'Um {{1}}', example: { body_text: [['a', 'b', 'c']] } },
        buttons(
          { type: 'URL', text: 'Site', url: 'https://a.dev', example: ['x'] },
          { type: 'URL', text: 'Perfil', url: 'https://a.dev/{{1}}', example: ['ana'] },
        ),
      ]),
    );
    expect(cleaned.components).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Sem variável' },
      { type: 'BODY', text: 'Um {{1}}', example: { body_text: [['a']] } },
      buttons(
        { type: 'URL', text: 'Site', url: 'https://a.dev' },
        { type: 'URL', text: 'Perfil', url: 'https://a.dev/{{1}}', example: ['ana'] },
      ),
    ]);
  });

  it('keeps the examples still used and removes emptied example objects', () => {
    const cleaned = withoutUnusedExamples(
      input([
        header({ format: 'LOCATION', example: { header_handle: ['h'] } }),
        { type: 'BODY', text: 'Sem variável', example: { body_text: [['a']] } },
      ]),
    );
    expect(cleaned.components).toEqual([
      { type: 'HEADER', format: 'LOCATION' },
      { type: 'BODY', text: 'Sem variável' },
    ]);
    const kept = input([
      header({ format: 'TEXT', text: 'Oi {{1}}', example: { header_text: ['Ana'] } }),
      { type: 'BODY', text: '{{1}} {{2}}', example: { body_text: [['a', 'b']] } },
    ]);
    expect(withoutUnusedExamples(kept)).toEqual(kept);
    const image = input([header({ format: 'IMAGE', example: { header_text: ['x'], header_handle: ['h'] } }), body('x')]);
    expect(withoutUnusedExamples(image).components[0]).toEqual({ type: 'HEADER', format: 'IMAGE', example: { header_handle: ['h'] } });
  });
});

describe('templateBodyFor', () => {
  it('fills the body with the subscriber’s body parameters, after a header parameter', () => {
    const components = [header({ format: 'TEXT', text: 'Oi {{1}}' }), body('Olá {{1}}, seu pedido {{2}}')];
    expect(templateBodyFor(components, ['Cabeçalho', 'Ana', '123'])).toBe('Olá Ana, seu pedido 123');
    expect(templateBodyFor([footer('x')], [])).toBe('');
  });
});

describe('templateParameterNames', () => {
  it('names the import columns after the placeholders: header, body, then URL buttons', () => {
    const components: TemplateComponent[] = [
      header({ format: 'TEXT', text: 'Oi {{1}}' }),
      body('Olá {{2}}, seu pedido {{1}}'),
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Sim' },
          { type: 'URL', text: 'Ver', url: 'https://loja.test/{{1}}' },
        ],
      },
    ];
    expect(templateParameterNames(components)).toEqual(['header_1', 'body_1', 'body_2', 'button_2_url']);
    expect(templateParameterNames([body('Sem variáveis')])).toEqual([]);
  });
});
