import { AppError } from '@atende/contract';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route carries one file of at most this many bytes (RouteDef.fileMaxBytes): a body over its limit is that file too big. */
    fileMaxBytes?: number;
  }
}

/** Largest form-encoded body (login, logout, channel creation): they carry a few short fields. */
export const FORM_BODY_LIMIT = 64 * 1024;

/** A size as people read it: 5 MB, 64 KB, 900 bytes. */
export function readableSize(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB && (bytes * 10) % MB === 0) return `${bytes / MB} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/**
 * 413 naming the limit passed: `params.max_bytes`, and `max_size` as people read it,
 * so the web words it in the user's language. A file or a body over a limit is refused whole, never
 * kept cut at the limit.
 */
export function payloadTooLarge(maxBytes: number, what: 'file' | 'body' = 'file'): AppError {
  const size = readableSize(maxBytes);
  const message = what === 'file' ? `Maximum file size exceeded (${size})` : 'Request body is too large';
  return new AppError('payload_too_large', message, undefined, { max_bytes: maxBytes, max_size: size });
}

/**
 * The limit a body that was too large passed: the route's own (Fastify's `bodyLimit` of the route, or
 * the server's), except form-encoded bodies, parsed under FORM_BODY_LIMIT unless the route set its own.
 */
export function bodyTooLarge(request: FastifyRequest): AppError {
  const fileMax = request.routeOptions.config.fileMaxBytes;
  if (fileMax) return payloadTooLarge(fileMax, 'file');
  const routeLimit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? FORM_BODY_LIMIT;
  const ownLimit = routeLimit !== request.server.initialConfig.bodyLimit;
  const form = /^application\/x-www-form-urlencoded\b/i.test(String(request.headers['content-type'] ?? ''));
  return payloadTooLarge(form && !ownLimit ? Math.min(routeLimit, FORM_BODY_LIMIT) : routeLimit, 'body');
}
