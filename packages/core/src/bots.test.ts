import { describe, expect, it } from 'vitest';
import { botFlowIssues, BOT_MESSAGES, type BotNode } from './bots';

const flow: BotNode[] = [
  { id: 's', type: 'start', next: 'menu' },
  {
    id: 'menu',
    type: 'options',
    text: 'Pick one',
    invalid_option_message: 'Please pick 1 or 2',
    options: [
      { key: '1', label: 'Order', next: 'ask' },
      { key: '2', label: 'Human', next: 'human' },
    ],
  },
  { id: 'ask', type: 'prompt', text: 'Your order number?', variable: 'order', next: 'api' },
  { id: 'api', type: 'http', url: 'https://erp.example.com/orders', error_text: 'Could not look it up', on_error: 'human', next: 'route' },
  { id: 'route', type: 'router', conditions: [{ expression: 'status == "late"', next: 'human' }], next: 'bye' },
  { id: 'vars', type: 'set_variables', variables: [{ name: 'tier', value: 'gold' }], next: 'bye' },
  { id: 'human', type: 'transfer', sector_uuid: 'sector-1' },
  { id: 'bye', type: 'end', text: 'Bye!' },
];

describe('botFlowIssues (bot flow)', () => {
  it('accepts a complete flow (HTTP timeout defaults to 5 s)', () => {
    expect(botFlowIssues('Support bot', flow)).toEqual([]);
  });
  it('wants unique option keys, an invalid-option message and every handle connected', () => {
    const broken = structuredClone(flow);
    broken[1]!.options = [
      { key: '1', label: 'a', next: 'ask' },
      { key: '1 ', label: 'b', next: null },
    ];
    broken[1]!.invalid_option_message = '';
    expect(botFlowIssues('Bot', broken)).toEqual([
      { path: 'nodes.1.invalid_option_message', message: BOT_MESSAGES.invalidOption },
      { path: 'nodes.1.options.1.key', message: BOT_MESSAGES.optionKeyUnique },
      { path: 'nodes.1.options.1.next', message: BOT_MESSAGES.notConnected },
    ]);
  });
  it('wants named prompts and variables, URL and error text, expressions, a sector, one start', () => {
    const broken = structuredClone(flow);
    broken[2]!.variable = '1st';
    broken[3]!.url = 'ftp:/x';
    broken[3]!.error_text = '';
    broken[3]!.timeout_seconds = 0;
    broken[4]!.conditions = [{ expression: ' ', next: 'gone' }];
    broken[5]!.variables = [{ name: '', value: 'x' }];
    broken[6]!.sector_uuid = null;
    broken.push({ id: 's2', type: 'start', next: 'bye' });
    expect(botFlowIssues('', broken).map((i) => i.message)).toEqual([
      BOT_MESSAGES.nameRequired,
      BOT_MESSAGES.oneStart,
      BOT_MESSAGES.promptNamed,
      BOT_MESSAGES.urlInvalid,
      BOT_MESSAGES.timeout,
      BOT_MESSAGES.errorText,
      BOT_MESSAGES.conditionExpression,
      BOT_MESSAGES.unknownTarget,
      BOT_MESSAGES.variableNamed,
      BOT_MESSAGES.sectorRequired,
    ]);
  });
});
