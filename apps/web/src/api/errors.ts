import type { ApiError } from '@atende/sdk';
import type { TFunction } from 'i18next';

/** Server messages the spec lists as translated (spec 000 §8 / 002 §8); they have entries in pt.ts. */
export const KNOWN_SERVER_MESSAGES = [
  'Email already being used',
  'There is already a bot with this name',
  'Some channels depend on this bot',
  'File parameter must be a csv file',
  'Invalid file! It must have at least name and phone',
  'Recipient is not a valid WhatsApp user',
  'Fail to create conversation',
] as const;

export const NO_PERMISSION = 'Você não tem permissão para acessar essa página';
export const FEATURE_OFF = 'Funcionalidade não ativada';
export const SESSION_ENDED = 'Credenciais inválidas';

/**
 * The text a failed call shows (spec 000 §8): the server's error_message when present (translated
 * when the dictionary knows it), else 400 'Missing parameters', 403 'Invalid credentials', else
 * 'Something went wrong'.
 */
export function errorText(error: ApiError, t: TFunction): string {
  if (hasServerMessage(error)) return t(error.message);
  if (error.status === 400) return t('Missing parameters');
  if (error.status === 403) return t('Invalid credentials');
  return t('Something went wrong');
}

function hasServerMessage(error: ApiError): boolean {
  const body = error.body;
  return typeof body === 'object' && body !== null && 'error_message' in body && Boolean(error.message);
}

/** Calls whose 401 is an answer for the form itself (wrong password), not an expired session. */
export const SESSION_STARTING_PATHS = new Set(['/api/v1/login', '/api/v1/login/code']);
