import { fieldMessage } from '@atende/contract';
import { z } from 'zod';
import { ChannelDeliveryError } from './adapter';

/**
 * The pieces of provider settings and secrets schemas the provider families share. Form-encoded
 * channel creation stores unset fields as '', so blank counts as absent.
 */

export const optionalText = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.string().trim().max(2000).optional(),
);
export const httpUrl = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
  z.url({ protocol: /^https?$/, message: fieldMessage('base_url_invalid') }).optional(),
);

/** Settings validated once per call; invalid ones are the channel's configuration to fix (a permanent failure). */
export function parsedSettings<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') || what;
  throw new ChannelDeliveryError('permanent', `Channel ${what} are invalid: ${field}: ${issue?.message ?? 'invalid'}`);
}

/** The secrets, or all absent when they are unreadable: a webhook check must answer false, not throw. */
export function parsedSecrets<T extends object>(schema: z.ZodType<T>, value: unknown): Partial<T> {
  const result = schema.safeParse(value ?? {});
  return result.success ? result.data : {};
}

/** A setting or secret the call cannot do without; its absence is the channel's configuration to fix. */
export function needed<T extends object, K extends keyof T & string>(values: T, key: K, label: string): NonNullable<T[K]> {
  const value = values[key];
  if (value === undefined || value === null || value === '') {
    throw new ChannelDeliveryError('permanent', `Channel has no ${label} configured (${key})`);
  }
  return value as NonNullable<T[K]>;
}

/** The channel's base_url without a trailing slash, or the provider's. */
export const baseUrlOf = (settings: { base_url?: string | undefined }, fallback: string): string =>
  (settings.base_url ?? fallback).replace(/\/+$/, '');
