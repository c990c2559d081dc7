import { AppError, createPause, deletePause, updatePause } from '@atende/contract';
import { describePause, findPause, insertPause, pauseDescriptionTaken, softDeletePause } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';

/**
 * Pause reasons. The list (GET /api/v1/pauses) is in the conversations module,
 * read by every agent. The admin area guards the pauses screen only by the settings area, so whoever
 * sees it (supervisor and up) edits it.
 */
export function pauseRoutes(app: FastifyInstance, ctx: AppContext): void {
  const access: Access = 'settings.pauses';
  async function find(session: Session, id: string) {
    const row = await findPause(ctx.db, session, id);
    if (!row) throw new AppError('pause_not_found', 'Pause not found');
    return row;
  }
  async function descriptionFree(session: Session, description: string, except?: string) {
    const taken = await pauseDescriptionTaken(ctx.db, session, description, except);
    if (taken) throw alreadyUsed('pause_description_taken', 'description', 'A pause with this description already exists');
  }

  bind(app, createPause, access, async ({ session, body }) => {
    await descriptionFree(session, body.description);
    const row = await insertPause(ctx.db, session, body.description);
    return { data: { uuid: row.id, description: row.description } };
  });
  bind(app, updatePause, access, async ({ session, params, body }) => {
    const pause = await find(session, params.id);
    await descriptionFree(session, body.description, pause.id);
    const row = await describePause(ctx.db, session.tenantId, pause.id, body.description);
    return { data: { uuid: row.id, description: row.description } };
  });
  // Agents on the pause stay paused on it (their state is theirs to change); nobody can choose it again.
  bind(app, deletePause, access, async ({ session, params }) => {
    const pause = await find(session, params.id);
    await softDeletePause(ctx.db, session.tenantId, pause.id);
    return { data: { ok: true as const } };
  });
}
