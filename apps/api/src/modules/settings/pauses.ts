import { AppError, createPause, deletePause, updatePause } from '@atende/contract';
import { scoped } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed, softDeleted } from './unique';

/**
 * Pause reasons (spec 002 §3, §7). The list (GET /api/v1/pauses) is in the conversations module,
 * read by every agent. Spec 002 §2 guards the pauses screen only by the settings area, so whoever
 * sees it (supervisor and up) edits it.
 */
export function pauseRoutes(app: FastifyInstance, ctx: AppContext): void {
  const access: Access = 'settings.pauses';
  const db = (session: Session) => scoped(ctx.db, session);
  async function find(session: Session, id: string) {
    const row = await db(session).pause.findFirst({ where: { id, workspaceId: session.workspaceId, deletedAt: null } });
    if (!row) throw new AppError('not_found', 'Pause not found');
    return row;
  }
  async function descriptionFree(session: Session, description: string, except?: string) {
    const taken = await db(session).pause.findFirst({
      where: {
        workspaceId: session.workspaceId,
        deletedAt: null,
        description: { equals: description, mode: 'insensitive' },
        ...(except ? { NOT: { id: except } } : {}),
      },
    });
    if (taken) throw alreadyUsed('description', 'A pause with this description already exists');
  }

  bind(app, createPause, access, async ({ session, body }) => {
    await descriptionFree(session, body.description);
    const row = await db(session).pause.create({
      data: { tenantId: session.tenantId, workspaceId: session.workspaceId, description: body.description },
    });
    return { data: { uuid: row.id, description: row.description } };
  });
  bind(app, updatePause, access, async ({ session, params, body }) => {
    const pause = await find(session, params.id);
    await descriptionFree(session, body.description, pause.id);
    const row = await db(session).pause.update({ where: { id: pause.id }, data: { description: body.description } });
    return { data: { uuid: row.id, description: row.description } };
  });
  // Agents on the pause stay paused on it (their state is theirs to change); nobody can choose it again.
  bind(app, deletePause, access, async ({ session, params }) => {
    const pause = await find(session, params.id);
    await db(session).pause.update({ where: { id: pause.id }, data: softDeleted() });
    return { data: { ok: true as const } };
  });
}
