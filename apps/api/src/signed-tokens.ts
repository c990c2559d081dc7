import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

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

export function signToken(claims: object, secret: string, options: { audience: string; issuer?: string; expiresIn: number; jwtid?: string }): string {
  return jwt.sign(claims, keyOf(secret), { algorithm: 'HS256', ...options });
}

export type Verified = { ok: true; payload: unknown } | { ok: false; reason: 'expired' | 'invalid' };

/** The payload of a well-signed, unexpired token of this audience (and issuer), or why not. */
export function verifyToken(token: string, secret: string, options: { audience: string; issuer?: string }): Verified {
  if (!COMPACT_JWT.test(token)) return { ok: false, reason: 'invalid' };
  try {
    return { ok: true, payload: jwt.verify(token, keyOf(secret), { algorithms: ['HS256'], ...options }) };
  } catch (error) {
    return { ok: false, reason: error instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
  }
}
