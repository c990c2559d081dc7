import { createHmac } from 'node:crypto';
import { headerValue, sameSecret } from '../http';

/**
 * What every Meta product we speak shares (WhatsApp Cloud API, Messenger Platform, Instagram
 * messaging): the Graph API's address and version, where Meta serves media, the one-time GET
 * handshake with the verify token (hub.challenge) and X-Hub-Signature-256 over the raw body with
 * the app secret on every webhook.
 */

export const GRAPH_BASE_URL = 'https://graph.facebook.com';
export const GRAPH_VERSION = 'v21.0';
/** Where Meta serves media downloads ('.x' = any subdomain of x). */
export const META_MEDIA_HOSTS = ['lookaside.fbsbx.com', '.fbcdn.net', '.whatsapp.net', '.cdninstagram.com'] as const;
export const HUB_SIGNATURE_HEADER = 'x-hub-signature-256';

/** X-Hub-Signature-256: 'sha256=' and the hex HMAC-SHA256 of the raw body with the app secret. */
export function hubSignature(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}

/** Whether a webhook's X-Hub-Signature-256 is the app secret's, compared in constant time. */
export function verifyHubSignature(
  rawBody: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  appSecret: string,
): boolean {
  return sameSecret(headerValue(headers[HUB_SIGNATURE_HEADER]), hubSignature(rawBody, appSecret));
}

/** The GET handshake: hub.challenge echoed when hub.mode is subscribe and hub.verify_token is ours; null refuses. */
export function hubChallenge(query: Record<string, string | undefined>, verifyToken: string | undefined): string | null {
  if (query['hub.mode'] !== 'subscribe' || !sameSecret(query['hub.verify_token'], verifyToken)) return null;
  return query['hub.challenge'] ?? '';
}
