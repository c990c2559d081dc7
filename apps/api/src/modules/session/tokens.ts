import { z } from 'zod';
import { signToken, verifyToken } from '../../signed-tokens';

const AUDIENCE = 'atende-web';
const ISSUER = 'atende-api';
export const SESSION_COOKIE = 'atende_session';

const ClaimsSchema = z.object({ sid: z.uuid(), sub: z.uuid(), tid: z.uuid() });
export type SessionClaims = z.infer<typeof ClaimsSchema>;

export function signSessionToken(claims: SessionClaims, secret: string, ttlSeconds: number): string {
  return signToken(claims, secret, { audience: AUDIENCE, issuer: ISSUER, expiresIn: ttlSeconds });
}

export type VerifyResult = { ok: true; claims: SessionClaims } | { ok: false; reason: 'expired' | 'invalid' };

/** One allowed algorithm; exp, aud and iss checked; claims validated. */
export function verifySessionToken(token: string, secret: string): VerifyResult {
  const verified = verifyToken(token, secret, { audience: AUDIENCE, issuer: ISSUER });
  if (!verified.ok) return verified;
  const claims = ClaimsSchema.safeParse(verified.payload);
  return claims.success ? { ok: true, claims: claims.data } : { ok: false, reason: 'invalid' };
}

/** The token of a request: the Authorization bearer (sdk) first, then the session cookie (web). */
export function tokenFrom(headers: { authorization?: string }, cookies: Record<string, string | undefined>): string | undefined {
  const auth = headers.authorization;
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim() || undefined;
  return cookies[SESSION_COOKIE] || undefined;
}
