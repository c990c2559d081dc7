import { AppError } from '@atende/contract';
import { z } from 'zod';
import { signToken, verifyToken } from '../../signed-tokens';

const AUDIENCE = 'atende-livechat';
const ISSUER = 'atende-api';

const ClaimsSchema = z.object({ ch: z.uuid(), vid: z.uuid(), tid: z.uuid() });
export interface VisitorClaims {
  channelId: string;
  visitorId: string;
  tenantId: string;
}

/** A visitor's token: which channel and which visitor, signed with LIVECHAT_TOKEN_SECRET (never a user session). */
export function signVisitorToken(secret: string, claims: VisitorClaims, ttlSeconds: number): string {
  return signToken({ ch: claims.channelId, vid: claims.visitorId, tid: claims.tenantId }, secret, {
    audience: AUDIENCE,
    issuer: ISSUER,
    expiresIn: ttlSeconds,
  });
}

/** The claims of a Bearer visitor token, or 401. */
export function verifyVisitorToken(secret: string, authorization: string | undefined): VisitorClaims {
  const token = authorization?.toLowerCase().startsWith('bearer ') ? authorization.slice(7).trim() : '';
  if (!token) throw new AppError('chat_session_required', 'Start a chat session first');
  const verified = verifyToken(token, secret, ClaimsSchema, { audience: AUDIENCE, issuer: ISSUER });
  if (!verified.ok) throw new AppError('chat_session_invalid', 'Invalid or expired chat session');
  return { channelId: verified.claims.ch, visitorId: verified.claims.vid, tenantId: verified.claims.tid };
}
