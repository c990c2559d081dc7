import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-atende-signature';
export const TIMESTAMP_HEADER = 'x-atende-timestamp';

/** `sha256=<hex HMAC-SHA256 of the raw body>`, the value of X-Atende-Signature. */
export function signWebhookBody(rawBody: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of an X-Atende-Signature header against the raw body. */
export function verifyWebhookBody(rawBody: string | Buffer, header: string | string[] | undefined, secret: string): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(signWebhookBody(rawBody, secret));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
