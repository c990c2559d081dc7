import { describe, expect, it } from 'vitest';
import { evaluateBotExpression, interpolate, interpolateUrl, parseBotExpression, runBotFlow, type BotHttp } from './bot-flow';
import { botFlowIssues, BOT_MESSAGES, type BotNode } from './bots';

const flow: BotNode[] = [
  { id: 's', type: 'start', next: 'hello' },
  { id: 'hello', type: 'set_variables', variables: [{ name: 'greeting', value: 'Olá {{contact.name}}' }], next: 'menu' },
  {
    id: 'menu',
    type: 'options',
    text: '{{greeting}}! Pick one',
    invalid_option_message: 'Please pick 1 or 2',
    options: [
      { key: '1', label: 'Order status', next: 'ask' },
      { key: '2', label: 'Human', next: 'human' },
    ],
  },
  { id: 'ask', type: 'prompt', text: 'Your order number?', variable: 'order', next: 'api' },
  {
    id: 'api',
    type: 'http',
    method: 'POST',
    url: 'https://erp.example.com/orders/{{order}}',
    timeout_seconds: 2,
    error_text: 'Could not look it up',
    on_error: 'human',
    next: 'route',
  },
  {
    id: 'route',
    type: 'router',
    conditions: [{ expression: '{{response.status}} == "late" || response.days > 10', next: 'human' }],
    next: 'bye',
  },
  { id: 'human', type: 'transfer', text: 'Passing you to {{order}} team', sector_uuid: 'sector-1' },
  { id: 'bye', type: 'end', text: 'Order {{order}} is {{response.status}}. Bye!' },
];
const vars = { contact: { name: 'Ana', phone: '+5511999990000' } };
const noHttp: BotHttp = () => Promise.reject(new Error('no HTTP expected'));

describe('router expressions', () => {
  it('compares numbers as numbers and texts ignoring case, joins with && before ||', () => {
    const v = { age: '19', plan: 'Gold', response: { items: 3, note: 'Delayed by rain' } };
    expect(evaluateBotExpression('{{age}} >= 18', v)).toBe(true);
    expect(evaluateBotExpression('age < 9', v)).toBe(false);
    expect(evaluateBotExpression('plan == "gold"', v)).toBe(true);
    expect(evaluateBotExpression("plan != 'gold'", v)).toBe(false);
    expect(evaluateBotExpression('response.note contains "RAIN"', v)).toBe(true);
    expect(evaluateBotExpression('age > 30 && plan == "gold" || response.items == 3', v)).toBe(true);
    expect(evaluateBotExpression('age > 30 || plan == "silver" && response.items == 3', v)).toBe(false);
    expect(evaluateBotExpression('missing', v)).toBe(false);
    expect(evaluateBotExpression('plan', v)).toBe(true);
  });
  it('refuses what is not an expression', () => {
    for (const bad of ['', '==', 'age >', 'age = 3', 'age > 3 &&', '"unclosed', 'a b']) expect(parseBotExpression(bad), bad).toBeNull();
    expect(evaluateBotExpression('age >', { age: 3 })).toBe(false);
  });
  it('is checked by the flow rules', () => {
    const broken = structuredClone(flow);
    broken[5]!.conditions = [{ expression: 'status = late', next: 'human' }];
    expect(botFlowIssues('Bot', broken)).toEqual([{ path: 'nodes.5.conditions.0.expression', message: BOT_MESSAGES.expressionInvalid }]);
    expect(botFlowIssues('Bot', flow)).toEqual([]);
  });
});

describe('runBotFlow', () => {
  it('interpolates dotted variables, empty when absent', () => {
    expect(interpolate('Hi {{ contact.name }} {{nope.x}}!', vars)).toBe('Hi Ana !');
  });

  it('starts at Start, runs set-variables and waits at the options menu', async () => {
    const run = await runBotFlow(flow, { nodeId: null, vars }, 'oi', noHttp);
    expect(run.texts).toEqual(['Olá Ana! Pick one\n\n1 - Order status\n2 - Human']);
    expect(run.outcome).toEqual({ kind: 'wait', nodeId: 'menu' });
    expect(run.vars.greeting).toBe('Olá Ana');
  });

  it('repeats the menu after the invalid-option message, then follows the chosen option by key or label', async () => {
    const state = { nodeId: 'menu', vars: { ...vars, greeting: 'Hi' } };
    const wrong = await runBotFlow(flow, state, '7', noHttp);
    expect(wrong.texts).toEqual(['Please pick 1 or 2', 'Hi! Pick one\n\n1 - Order status\n2 - Human']);
    expect(wrong.outcome).toEqual({ kind: 'wait', nodeId: 'menu' });
    const byLabel = await runBotFlow(flow, state, ' order STATUS ', noHttp);
    expect(byLabel.texts).toEqual(['Your order number?']);
    expect(byLabel.outcome).toEqual({ kind: 'wait', nodeId: 'ask' });
    expect(byLabel.vars.menu_answer).toBe('1');
  });

  it('keeps the prompt answer, posts the variables and routes on the JSON response', async () => {
    const calls: Parameters<BotHttp>[0][] = [];
    const http: BotHttp = (req) => {
      calls.push(req);
      return Promise.resolve({ status: 200, body: { status: 'on time', days: 2 } });
    };
    const run = await runBotFlow(flow, { nodeId: 'ask', vars }, ' 4711 ', http);
    expect(calls).toEqual([
      {
        url: 'https://erp.example.com/orders/4711',
        method: 'POST',
        body: expect.objectContaining({ order: '4711' }) as unknown,
        timeoutMs: 2000,
      },
    ]);
    expect(run.texts).toEqual(['Order 4711 is on time. Bye!']);
    expect(run.outcome).toEqual({ kind: 'end' });
    expect(run.http).toEqual([{ url: 'https://erp.example.com/orders/4711', status: 200, error: null }]);

    const late = await runBotFlow(flow, { nodeId: 'ask', vars }, '9', () =>
      Promise.resolve({ status: 200, body: { status: 'LATE', days: 1 } }),
    );
    expect(late.outcome).toEqual({ kind: 'transfer', sectorUuid: 'sector-1' });
    expect(late.texts).toEqual(['Passing you to 9 team']);
  });

  // A contact's text in an HTTP node's URL is data in the part it lands in.
  it('encodes each value for the URL: a contact cannot add a segment, a parameter or a fragment, nor cut the URL', () => {
    const h = { h: '127.0.0.2:4319/inj?a=1&b=2#' };
    const path = new URL(interpolateUrl('https://erp.example.com/orders/{{h}}?key=k1', h));
    expect(path.host).toBe('erp.example.com');
    expect(path.pathname.split('/').map(decodeURIComponent)).toEqual(['', 'orders', h.h]);
    expect([...path.searchParams]).toEqual([['key', 'k1']]);
    expect(path.hash).toBe('');
    const query = new URL(interpolateUrl('https://erp.example.com/find?q={{h}}&key=k1#top', h));
    expect([...query.searchParams]).toEqual([
      ['q', h.h],
      ['key', 'k1'],
    ]);
    expect(query.hash).toBe('#top');
    const fragment = new URL(interpolateUrl('https://erp.example.com/find?key=k1#{{h}}', h));
    expect([...fragment.searchParams]).toEqual([['key', 'k1']]);
    expect(decodeURIComponent(fragment.hash.slice(1))).toBe(h.h);
    // In the host a value may name a host, not add a port, a path or a query.
    expect(interpolateUrl('http://{{h}}/real?key=1', { h: 'api.acme.example' })).toBe('http://api.acme.example/real?key=1');
    expect(() => new URL(interpolateUrl('http://{{h}}/real?key=1', h))).toThrow();
    expect(interpolateUrl('https://x.example/{{contact.name}}', { contact: { name: 'Ana Lú + 1' } })).toBe(
      'https://x.example/Ana%20L%C3%BA%20%2B%201',
    );
  });

  it('sends the error text and takes the error handle on a failure or a non-2xx answer', async () => {
    const timeout = await runBotFlow(flow, { nodeId: 'ask', vars }, '1', () =>
      Promise.reject(new Error('The operation was aborted due to timeout')),
    );
    expect(timeout.texts).toEqual(['Could not look it up', 'Passing you to 1 team']);
    expect(timeout.outcome).toEqual({ kind: 'transfer', sectorUuid: 'sector-1' });
    expect(timeout.http[0]).toMatchObject({ status: null, error: 'The operation was aborted due to timeout' });
    const notFound = await runBotFlow(flow, { nodeId: 'ask', vars }, '1', () => Promise.resolve({ status: 404, body: 'nope' }));
    expect(notFound.http[0]).toMatchObject({ status: 404, error: 'HTTP 404' });
    expect(notFound.vars.response).toBeUndefined();
    expect(notFound.outcome.kind).toBe('transfer');
  });

  it('hands over when the waiting node was removed or the flow loops without waiting', async () => {
    expect((await runBotFlow(flow, { nodeId: 'gone', vars }, 'x', noHttp)).outcome).toEqual({ kind: 'broken', reason: 'missing_node' });
    const loop: BotNode[] = [
      { id: 's', type: 'start', next: 'a' },
      { id: 'a', type: 'set_variables', variables: [], next: 'b' },
      { id: 'b', type: 'router', conditions: [], next: 'a' },
    ];
    expect((await runBotFlow(loop, { nodeId: null, vars }, 'x', noHttp)).outcome).toEqual({ kind: 'broken', reason: 'loop' });
  });

  it('does not change the state it was given', async () => {
    const state = { nodeId: 'ask', vars: { contact: { name: 'Ana' } } };
    await runBotFlow(flow, state, '1', () => Promise.resolve({ status: 200, body: {} }));
    expect(state.vars).toEqual({ contact: { name: 'Ana' } });
  });
});
