import type { ApiError } from '@atende/sdk';
import type { TFunction } from 'i18next';

/** Server messages the spec lists as translated (spec 000 §8 / 002 §8). */
export const KNOWN_SERVER_MESSAGES = [
  'Email already being used',
  'There is already a bot with this name',
  'Some channels depend on this bot',
  'File parameter must be a csv file',
  'Invalid file! It must have at least name and phone',
  'Recipient is not a valid WhatsApp user',
  'Fail to create conversation',
] as const;

/** The text a failed call shows: the server's message when present, else the status fallback. */
export function errorText(error: ApiError, t: TFunction): string {
  if (error.message && error.code !== 'unknown' && error.code !== 'network') return t(error.message);
  if (error.status === 400) return t('Missing parameters');
  if (error.status === 403) return t('Invalid credentials');
  return t('Something went wrong');
}

/** Calls whose 401 is an answer for the form itself (wrong password), not an expired session. */
export const SESSION_STARTING_PATHS = new Set(['/api/v1/login', '/api/v1/login/code']);
