import { createHmac, randomBytes } from 'node:crypto';
import { AppError, type MetaSetupKind } from '@atende/contract';
import { sameSecret } from '@atende/channels';
import type { Session } from '../session/session';

/**
 * The `state` of a Meta login (CSRF protection, and what ties Meta's answer to who asked): the kind,
 * the tenant, workspace and user of the session that started it, a nonce naming the server-side
 * login, and an expiry, HMAC-signed with a key derived from JWT_SECRET.
 */
export const META_SETUP_STATE_TTL_MS = 15 * 60_000;

export interface MetaSetupState {
  kind: MetaSetupKind;
  nonce: string;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('atende meta-setup state v1').digest();
const sign = (payload: string, secret: string) => createHmac('sha256', keyOf(secret)).update(payload).digest('base64url');

export const invalidState = () => new AppError('meta_setup_state_invalid', 'This Facebook login is invalid or has expired; connect again');

export function signMetaSetupState(session: Pick<Session, 'tenantId' | 'workspaceId' | 'userUuid'>, kind: MetaSetupKind, secret: string, now = Date.now()): string {
  const payload = Buffer.from(
    JSON.stringify({ k: kind, t: session.tenantId, w: session.workspaceId, u: session.userUuid, n: randomBytes(18).toString('base64url'), e: now + META_SETUP_STATE_TTL_MS }),
  ).toString('base64url');
  return `${payload}.${sign(payload, secret)}`;
}

/** The state's kind and nonce when it is ours, unexpired and this session's; else meta_setup_state_invalid. */
export function readMetaSetupState(state: string, session: Session, secret: string, now = Date.now()): MetaSetupState {
  const [payload, signature, extra] = state.split('.');
  if (!payload || !signature || extra !== undefined || !sameSecret(signature, sign(payload, secret))) throw invalidState();
  let fields: { k?: unknown; t?: unknown; w?: unknown; u?: unknown; n?: unknown; e?: unknown };
  try {
    fields = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof fields;
  } catch {
    throw invalidState();
  }
  const mine = fields.t === session.tenantId && fields.w === session.workspaceId && fields.u === session.userUuid;
  if (!mine || typeof fields.e !== 'number' || fields.e < now || typeof fields.n !== 'string' || (fields.k !== 'messenger' && fields.k !== 'instagram')) throw invalidState();
  return { kind: fields.k, nonce: fields.n };
}
