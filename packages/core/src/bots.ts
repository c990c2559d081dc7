import { fieldMessage } from '@atende/contract';
import { parseBotExpression } from './bot-flow';
import type { FieldIssue } from './text-rules';

/** Bot flow nodes: Start, HTTP, Options menu, Prompts, Router with conditions, Set variables, End, transfer. */
export const BOT_NODE_TYPES = ['start', 'http', 'options', 'prompt', 'router', 'set_variables', 'transfer', 'end'] as const;
export type BotNodeType = (typeof BOT_NODE_TYPES)[number];
/** A bot's HTTP request gives up after 5 s unless told otherwise. */
export const BOT_HTTP_TIMEOUT_DEFAULT_S = 5;

export interface BotNode {
  id: string;
  type: BotNodeType;
  /** The text the bot sends (options, prompt, transfer, end). */
  text?: string;
  /** Options menu: each option is a handle of its own. */
  options?: { key: string; label: string; next?: string | null }[];
  invalid_option_message?: string;
  /** Prompt: the variable the answer goes to. */
  variable?: string;
  /** HTTP: the request, and where to go on failure. */
  url?: string;
  method?: 'GET' | 'POST';
  timeout_seconds?: number;
  error_text?: string;
  on_error?: string | null;
  /** Router: the first condition whose expression holds decides; else `next`. */
  conditions?: { expression: string; next?: string | null }[];
  /** Set variables. */
  variables?: { name: string; value: string }[];
  /** Transfer: the sector the conversation enters. */
  sector_uuid?: string | null;
  /** The default handle: where the flow goes after this node. */
  next?: string | null;
}

/** The rules' messages, texts of the contract's catalogue (field-messages.ts). */
export const BOT_MESSAGES = {
  nameRequired: fieldMessage('name_required'),
  oneStart: fieldMessage('bot_start_required'),
  textRequired: fieldMessage('text_required'),
  invalidOption: fieldMessage('bot_invalid_option_message_required'),
  optionKeyRequired: fieldMessage('option_key_required'),
  optionKeyUnique: fieldMessage('option_keys_unique'),
  optionsRequired: fieldMessage('options_required'),
  promptNamed: fieldMessage('prompt_variable_required'),
  variableNamed: fieldMessage('variable_name_required'),
  urlRequired: fieldMessage('url_required'),
  urlInvalid: fieldMessage('url_invalid'),
  errorText: fieldMessage('error_text_required'),
  timeout: fieldMessage('bot_timeout_range'),
  conditionExpression: fieldMessage('condition_expression_required'),
  expressionInvalid: fieldMessage('bot_expression_invalid'),
  sectorRequired: fieldMessage('sector_required'),
  notConnected: fieldMessage('bot_handle_unconnected'),
  unknownTarget: fieldMessage('bot_handle_target_unknown'),
} as const;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Every broken rule of a bot flow ("Bot flow"), with the path of the field: required
 * texts, unique option keys, named prompts and variables, URL and error text of HTTP nodes, condition
 * expressions, a sector for transfers, and every handle connected to a node that exists (End and
 * Transfer have no outgoing handle).
 */
export function botFlowIssues(name: string, nodes: BotNode[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const push = (path: string, message: string) => issues.push({ path, message });
  if (!name.trim()) push('name', BOT_MESSAGES.nameRequired);
  if (nodes.filter((n) => n.type === 'start').length !== 1) push('nodes', BOT_MESSAGES.oneStart);
  const ids = new Set(nodes.map((n) => n.id));
  const handle = (path: string, target: string | null | undefined) => {
    if (!target) push(path, BOT_MESSAGES.notConnected);
    else if (!ids.has(target)) push(path, BOT_MESSAGES.unknownTarget);
  };
  nodes.forEach((node, i) => {
    const at = `nodes.${i}`;
    const needsText = node.type === 'options' || node.type === 'prompt' || node.type === 'end';
    if (needsText && !node.text?.trim()) push(`${at}.text`, BOT_MESSAGES.textRequired);
    switch (node.type) {
      case 'options': {
        if (!node.invalid_option_message?.trim()) push(`${at}.invalid_option_message`, BOT_MESSAGES.invalidOption);
        const options = node.options ?? [];
        if (options.length === 0) push(`${at}.options`, BOT_MESSAGES.optionsRequired);
        const seen = new Set<string>();
        options.forEach((o, j) => {
          const key = o.key.trim().toLowerCase();
          if (!key) push(`${at}.options.${j}.key`, BOT_MESSAGES.optionKeyRequired);
          else if (seen.has(key)) push(`${at}.options.${j}.key`, BOT_MESSAGES.optionKeyUnique);
          seen.add(key);
          handle(`${at}.options.${j}.next`, o.next);
        });
        return;
      }
      case 'prompt':
        if (!node.variable || !NAME.test(node.variable)) push(`${at}.variable`, BOT_MESSAGES.promptNamed);
        return handle(`${at}.next`, node.next);
      case 'http': {
        if (!node.url?.trim()) push(`${at}.url`, BOT_MESSAGES.urlRequired);
        else if (!/^https?:\/\/[^\s]+$/i.test(node.url.trim())) push(`${at}.url`, BOT_MESSAGES.urlInvalid);
        const timeout = node.timeout_seconds ?? BOT_HTTP_TIMEOUT_DEFAULT_S;
        if (!Number.isInteger(timeout) || timeout < 1 || timeout > 30) push(`${at}.timeout_seconds`, BOT_MESSAGES.timeout);
        if (!node.error_text?.trim()) push(`${at}.error_text`, BOT_MESSAGES.errorText);
        handle(`${at}.on_error`, node.on_error);
        return handle(`${at}.next`, node.next);
      }
      case 'router':
        (node.conditions ?? []).forEach((c, j) => {
          if (!c.expression.trim()) push(`${at}.conditions.${j}.expression`, BOT_MESSAGES.conditionExpression);
          else if (!parseBotExpression(c.expression)) push(`${at}.conditions.${j}.expression`, BOT_MESSAGES.expressionInvalid);
          handle(`${at}.conditions.${j}.next`, c.next);
        });
        return handle(`${at}.next`, node.next);
      case 'set_variables':
        (node.variables ?? []).forEach((v, j) => {
          if (!NAME.test(v.name)) push(`${at}.variables.${j}.name`, BOT_MESSAGES.variableNamed);
        });
        return handle(`${at}.next`, node.next);
      case 'transfer':
        if (!node.sector_uuid) push(`${at}.sector_uuid`, BOT_MESSAGES.sectorRequired);
        return;
      case 'end':
        return;
      case 'start':
        return handle(`${at}.next`, node.next);
    }
  });
  return issues;
}
