import { randomBytes } from 'node:crypto';
import { AppError, META_SETUP_KINDS, type MetaSetupKind } from '@atende/contract';
import { z } from 'zod';
import { signToken, verifyToken } from '../../signed-tokens';
import type { Session } from '../session/session';

/**
 * The `state` of a Meta login (CSRF protection, and what ties Meta's answer to who asked): a JWT like
 * the api's other signed tokens, with its own audience, naming the kind, the tenant, workspace and user
 * of the session that started it and a nonce for the server-side login, valid for 15 minutes.
 */
export const META_SETUP_STATE_TTL_MS = 15 * 60_000;
const AUDIENCE = 'atende-meta-setup';

export interface MetaSetupState {
  kind: MetaSetupKind;
  nonce: string;
}

const ClaimsSchema = z.object({ k: z.enum(META_SETUP_KINDS), t: z.string(), w: z.string(), u: z.string(), n: z.string().min(16) });

export const invalidState = () => new AppError('meta_setup_state_invalid', 'This Facebook login is invalid or has expired; connect again');

export function signMetaSetupState(
  session: Pick<Session, 'tenantId' | 'workspaceId' | 'userUuid'>,
  kind: MetaSetupKind,
  secret: string,
  now = Date.now(),
): string {
  const claims = {
    k: kind,
    t: session.tenantId,
    w: session.workspaceId,
    u: session.userUuid,
    n: randomBytes(18).toString('base64url'),
    iat: Math.floor(now / 1000),
  };
  return signToken(claims, secret, { audience: AUDIENCE, expiresIn: META_SETUP_STATE_TTL_MS / 1000 });
}

/** The state's kind and nonce when it is ours, unexpired and this session's; else meta_setup_state_invalid. */
export function readMetaSetupState(state: string, session: Session, secret: string): MetaSetupState {
  const verified = verifyToken(state, secret, ClaimsSchema, { audience: AUDIENCE });
  if (!verified.ok) throw invalidState();
  const claims = verified.claims;
  if (claims.t !== session.tenantId || claims.w !== session.workspaceId || claims.u !== session.userUuid) throw invalidState();
  return { kind: claims.k, nonce: claims.n };
}
