import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { signToken, verifyToken } from '../../signed-tokens';

// GET /sso/domain_switch/jwt. Its own audience, so a session token is never taken
// for a domain-switch token nor the other way round (a session token also needs a live sid).
const AUDIENCE = 'atende-domain-switch';
const ISSUER = 'atende-api';
export const DOMAIN_SWITCH_TTL_SECONDS = 60;

const ClaimsSchema = z.object({ sub: z.uuid(), tid: z.uuid(), jti: z.uuid() });
export type DomainSwitchClaims = z.infer<typeof ClaimsSchema>;

export function signDomainSwitchToken(user: { uuid: string; tenantId: string }, secret: string): { token: string; jti: string } {
  const jti = randomUUID();
  const token = signToken({ sub: user.uuid, tid: user.tenantId }, secret, {
    audience: AUDIENCE,
    issuer: ISSUER,
    expiresIn: DOMAIN_SWITCH_TTL_SECONDS,
    jwtid: jti,
  });
  return { token, jti };
}

/** The claims of a well-signed, unexpired domain-switch token, or null. Single use is the caller's (Redis). */
export function verifyDomainSwitchToken(token: string, secret: string): DomainSwitchClaims | null {
  const verified = verifyToken(token, secret, ClaimsSchema, { audience: AUDIENCE, issuer: ISSUER });
  return verified.ok ? verified.claims : null;
}
