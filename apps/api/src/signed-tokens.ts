import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { z } from 'zod';

// The api's signed tokens (sessions, livechat visitors, domain switch, Meta login state): HS256
// JWTs, one allowed algorithm, each kind with its own audience.

const keys = new Map<string, KeyObject>();

/**
 * The secret as a KeyObject, made once per secret. Given a string, jsonwebtoken first tries to
 * parse it as a PEM public key (and throws) on every call: about 0.5 ms of CPU per verified
 * request, the largest single cost of a socket connect in the fan-out bench's profile.
 */
function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret));
    keys.set(secret, key);
  }
  return key;
}

// Three base64url parts: anything else (an integration's channel token in the same Authorization
// header, say) is refused without building and throwing jsonwebtoken's error.
const COMPACT_JWT = /^[\w-]+\.[\w-]+\.[\w-]*$/;

export function signToken(
  claims: object,
  secret: string,
  options: { audience: string; issuer?: string; expiresIn: number; jwtid?: string },
): string {
  return jwt.sign(claims, keyOf(secret), { algorithm: 'HS256', ...options });
}

export type Verified<T> = { ok: true; claims: T } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * The claims of a well-signed, unexpired token of this audience (and issuer), read by the token
 * kind's schema; or why not (claims that do not match the schema are invalid).
 */
export function verifyToken<S extends z.ZodType>(
  token: string,
  secret: string,
  schema: S,
  options: { audience: string; issuer?: string },
): Verified<z.infer<S>> {
  if (!COMPACT_JWT.test(token)) return { ok: false, reason: 'invalid' };
  let decoded: string | jwt.JwtPayload;
  try {
    decoded = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'], ...options });
  } catch (error) {
    return { ok: false, reason: error instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
  }
  const claims = schema.safeParse(decoded);
  return claims.success ? { ok: true, claims: claims.data } : { ok: false, reason: 'invalid' };
}
