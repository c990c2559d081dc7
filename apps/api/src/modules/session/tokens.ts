import { z } from 'zod';
import { signToken, verifyToken, type Verified } from '../../signed-tokens';

const AUDIENCE = 'atende-web';
const ISSUER = 'atende-api';
export const SESSION_COOKIE = 'atende_session';

const ClaimsSchema = z.object({ sid: z.uuid(), sub: z.uuid(), tid: z.uuid() });
export type SessionClaims = z.infer<typeof ClaimsSchema>;

export function signSessionToken(claims: SessionClaims, secret: string, ttlSeconds: number): string {
  return signToken(claims, secret, { audience: AUDIENCE, issuer: ISSUER, expiresIn: ttlSeconds });
}

export type VerifyResult = Verified<SessionClaims>;

/** One allowed algorithm; exp, aud and iss checked; claims validated. */
export function verifySessionToken(token: string, secret: string): VerifyResult {
  return verifyToken(token, secret, ClaimsSchema, { audience: AUDIENCE, issuer: ISSUER });
}

/** The token of a request: the Authorization bearer (sdk) first, then the session cookie (web). */
export function tokenFrom(headers: { authorization?: string }, cookies: Record<string, string | undefined>): string | undefined {
  const auth = headers.authorization;
  if (auth?.toLowerCase().startsWith('bearer ')) return auth.slice(7).trim() || undefined;
  return cookies[SESSION_COOKIE] || undefined;
}
