import { BOT_HTTP_TIMEOUT_DEFAULT_S, type BotNode } from './bots';
import { matchMenuAnswer, menuPrompt } from './menus';

/**
 * Running a bot flow (flow nodes) for one contact: pure, so the same rules run in the
 * worker and in tests. The caller keeps the state (the node waiting for an answer and the
 * variables), sends the texts and applies the outcome; HTTP goes through the function it passes.
 */

export type BotVars = Record<string, unknown>;

/** A value of the variables by a dotted path ('response.plan', 'contact.name'); undefined when absent. */
export function lookupVar(vars: BotVars, path: string): unknown {
  let value: unknown = vars;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const shown = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g;

/** `{{ path }}` in a text replaced by the variable's value ('' when absent). */
export const interpolate = (text: string, vars: BotVars): string =>
  text.replace(PLACEHOLDER, (_, path: string) => shown(lookupVar(vars, path)));

/**
 * An HTTP node's URL with each `{{ path }}` percent-encoded as one URL component:
 * what a contact typed stays data inside the part of the URL it was written in. Component encoding
 * is right for every part a placeholder can stand in after the fixed `http(s)://` (host, path segment,
 * query name or value, fragment): it escapes `/ ? # & = : @ +` and spaces, so a value can add no
 * segment, parameter, port or fragment, nor cut what follows it.
 */
export const interpolateUrl = (template: string, vars: BotVars): string =>
  template.replace(PLACEHOLDER, (_, path: string) => encodeURIComponent(shown(lookupVar(vars, path))));

// ---------------------------------------------------------------------------------------------
// Router expressions: comparisons joined by && and ||, e.g. `{{age}} >= 18 && plan == "gold"`.

type Operand = { kind: 'var'; path: string } | { kind: 'literal'; value: string | number | boolean };
const COMPARATORS = ['==', '!=', '>=', '<=', '>', '<', 'contains'] as const;
type Comparator = (typeof COMPARATORS)[number];
type Comparison = { left: Operand; op: Comparator | null; right: Operand | null };
/** Disjunction of conjunctions (&& binds tighter than ||). */
export type BotExpression = Comparison[][];

const TOKEN =
  /\s*(\{\{\s*[A-Za-z_][\w.]*\s*\}\}|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?(?![\w.])|==|!=|>=|<=|>|<|&&|\|\||[A-Za-z_][\w.]*)/y;

function tokenize(source: string): string[] | null {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break;
    const match = TOKEN.exec(source);
    if (!match) return null;
    tokens.push(match[1]!);
  }
  return tokens;
}

function operand(token: string | undefined): Operand | null {
  if (token === undefined) return null;
  if (token.startsWith('{{')) return { kind: 'var', path: token.slice(2, -2).trim() };
  if (token.startsWith('"') || token.startsWith("'")) return { kind: 'literal', value: token.slice(1, -1).replace(/\\(.)/g, '$1') };
  if (/^-?\d/.test(token)) return { kind: 'literal', value: Number(token) };
  if (token === 'true' || token === 'false') return { kind: 'literal', value: token === 'true' };
  if ((COMPARATORS as readonly string[]).includes(token) || token === '&&' || token === '||') return null;
  return { kind: 'var', path: token };
}

/** The parsed expression, or null when it is not one (the editor says 'Invalid expression'). */
export function parseBotExpression(source: string): BotExpression | null {
  const tokens = tokenize(source);
  if (!tokens || tokens.length === 0) return null;
  const groups: BotExpression = [[]];
  let i = 0;
  for (;;) {
    const left = operand(tokens[i++]);
    if (!left) return null;
    let comparison: Comparison = { left, op: null, right: null };
    const next = tokens[i];
    if (next !== undefined && (COMPARATORS as readonly string[]).includes(next)) {
      const right = operand(tokens[i + 1]);
      if (!right) return null;
      comparison = { left, op: next as Comparator, right };
      i += 2;
    }
    groups[groups.length - 1]!.push(comparison);
    const joiner = tokens[i++];
    if (joiner === undefined) return groups;
    if (joiner === '||') groups.push([]);
    else if (joiner !== '&&') return null;
  }
}

const valueOf = (o: Operand, vars: BotVars): unknown => (o.kind === 'var' ? lookupVar(vars, o.path) : o.value);
const asNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const truthy = (v: unknown): boolean => v !== undefined && v !== null && v !== false && v !== '' && v !== 0 && shown(v) !== 'false';

function holds(c: Comparison, vars: BotVars): boolean {
  const left = valueOf(c.left, vars);
  if (!c.op || !c.right) return truthy(left);
  const right = valueOf(c.right, vars);
  if (c.op === 'contains') return shown(left).toLowerCase().includes(shown(right).toLowerCase());
  const [a, b] = [asNumber(left), asNumber(right)];
  const cmp = a !== null && b !== null ? a - b : shown(left).trim().localeCompare(shown(right).trim());
  switch (c.op) {
    case '==':
      return a !== null && b !== null ? a === b : shown(left).trim().toLowerCase() === shown(right).trim().toLowerCase();
    case '!=':
      return a !== null && b !== null ? a !== b : shown(left).trim().toLowerCase() !== shown(right).trim().toLowerCase();
    case '>':
      return cmp > 0;
    case '>=':
      return cmp >= 0;
    case '<':
      return cmp < 0;
    case '<=':
      return cmp <= 0;
  }
}

/** Whether an expression holds for these variables; an unparsable one never does. */
export function evaluateBotExpression(source: string, vars: BotVars): boolean {
  const parsed = parseBotExpression(source);
  return parsed !== null && parsed.some((all) => all.every((c) => holds(c, vars)));
}

// ---------------------------------------------------------------------------------------------
// The interpreter.

export interface BotHttpRequest {
  url: string;
  method: 'GET' | 'POST';
  /** POST: the variables as JSON. */
  body: BotVars | null;
  timeoutMs: number;
}
/** Answers the response (status and body, parsed as JSON when it is) or throws (timeout, refused address, network). */
export type BotHttp = (request: BotHttpRequest) => Promise<{ status: number; body: unknown }>;

export type BotOutcome =
  | { kind: 'wait'; nodeId: string }
  | { kind: 'transfer'; sectorUuid: string | null }
  | { kind: 'end' }
  /** The flow cannot go on (a node removed by an edit, a loop): the conversation goes to the queue. */
  | { kind: 'broken'; reason: 'missing_node' | 'loop' };

export interface BotRun {
  texts: string[];
  vars: BotVars;
  outcome: BotOutcome;
  /** The HTTP calls made, for the log. */
  http: { url: string; status: number | null; error: string | null }[];
}

/** More nodes than this in one run is a loop without a wait: the flow hands the contact over. */
export const BOT_MAX_STEPS = 100;

const optionsText = (node: BotNode, vars: BotVars) =>
  menuPrompt(
    interpolate(node.text ?? '', vars),
    (node.options ?? []).map((o) => ({ key: o.key, label: interpolate(o.label, vars) })),
  );

/**
 * Runs a flow from where it waits: `nodeId` null starts it at Start (the contact's first message
 * only wakes it); otherwise `input` answers the waiting Options or Prompt node. Goes on through
 * HTTP, Router and Set variables nodes until a node waits for the contact, transfers or ends.
 */
export async function runBotFlow(
  nodes: readonly BotNode[],
  state: { nodeId: string | null; vars: BotVars },
  input: string,
  http: BotHttp,
): Promise<BotRun> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const vars: BotVars = structuredClone(state.vars);
  const texts: string[] = [];
  const calls: BotRun['http'] = [];
  const done = (outcome: BotOutcome): BotRun => ({ texts, vars, outcome, http: calls });
  const say = (text: string | undefined) => {
    const t = interpolate(text ?? '', vars).trim();
    if (t) texts.push(t);
  };

  let next: string | null | undefined;
  if (state.nodeId === null) {
    next = nodes.find((n) => n.type === 'start')?.next;
  } else {
    const waiting = byId.get(state.nodeId);
    if (!waiting) return done({ kind: 'broken', reason: 'missing_node' });
    if (waiting.type === 'options') {
      const options = waiting.options ?? [];
      const index = matchMenuAnswer(
        options.map((o) => ({ key: o.key, label: interpolate(o.label, vars) })),
        input,
      );
      if (index === -1) {
        say(waiting.invalid_option_message);
        texts.push(optionsText(waiting, vars));
        return done({ kind: 'wait', nodeId: waiting.id });
      }
      vars[`${waiting.id}_answer`] = options[index]!.key;
      next = options[index]!.next;
    } else if (waiting.type === 'prompt') {
      if (waiting.variable) vars[waiting.variable] = input.trim();
      next = waiting.next;
    } else {
      return done({ kind: 'broken', reason: 'missing_node' });
    }
  }

  for (let steps = 0; steps < BOT_MAX_STEPS; steps++) {
    const node = next ? byId.get(next) : undefined;
    if (!node) return done({ kind: 'broken', reason: 'missing_node' });
    switch (node.type) {
      case 'start':
        next = node.next;
        break;
      case 'options':
        texts.push(optionsText(node, vars));
        return done({ kind: 'wait', nodeId: node.id });
      case 'prompt':
        say(node.text);
        return done({ kind: 'wait', nodeId: node.id });
      case 'set_variables':
        for (const v of node.variables ?? []) vars[v.name] = interpolate(v.value, vars);
        next = node.next;
        break;
      case 'router':
        next = (node.conditions ?? []).find((c) => evaluateBotExpression(c.expression, vars))?.next ?? node.next;
        break;
      case 'http': {
        const url = interpolateUrl((node.url ?? '').trim(), vars);
        const method = node.method ?? 'GET';
        let status: number | null = null;
        try {
          const answer = await http({
            url,
            method,
            body: method === 'POST' ? vars : null,
            timeoutMs: (node.timeout_seconds ?? BOT_HTTP_TIMEOUT_DEFAULT_S) * 1000,
          });
          status = answer.status;
          vars.response_status = status;
          if (status < 200 || status > 299) throw new Error(`HTTP ${status}`);
          vars.response = answer.body;
          calls.push({ url, status, error: null });
          next = node.next;
        } catch (error) {
          calls.push({ url, status, error: error instanceof Error ? error.message : String(error) });
          say(node.error_text);
          next = node.on_error;
        }
        break;
      }
      case 'transfer':
        say(node.text);
        return done({ kind: 'transfer', sectorUuid: node.sector_uuid ?? null });
      case 'end':
        say(node.text);
        return done({ kind: 'end' });
    }
  }
  return done({ kind: 'broken', reason: 'loop' });
}
