import { AppError } from '@atende/contract';
import { describePause, findPause, insertPause, pauseDescriptionTaken, softDeletePause } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';

/** A pause reason as the settings routes answer it. */
export interface PauseItem {
  uuid: string;
  description: string;
}

const present = (r: { id: string; description: string }): PauseItem => ({ uuid: r.id, description: r.description });

/**
 * Pause reasons: a description no other live pause has. The list (GET /api/v1/pauses) is in the
 * conversations module, read by every agent.
 */
export class PauseService {
  constructor(private readonly ctx: AppContext) {}

  private async find(session: Session, id: string) {
    const row = await findPause(this.ctx.db, session, id);
    if (!row) throw new AppError('pause_not_found', 'Pause not found');
    return row;
  }

  private async descriptionFree(session: Session, description: string, except?: string): Promise<void> {
    const taken = await pauseDescriptionTaken(this.ctx.db, session, description, except);
    if (taken) throw alreadyUsed('pause_description_taken', 'description', 'A pause with this description already exists');
  }

  async create(session: Session, description: string): Promise<PauseItem> {
    await this.descriptionFree(session, description);
    return present(await insertPause(this.ctx.db, session, description));
  }

  async update(session: Session, id: string, description: string): Promise<PauseItem> {
    const pause = await this.find(session, id);
    await this.descriptionFree(session, description, pause.id);
    return present(await describePause(this.ctx.db, session.tenantId, pause.id, description));
  }

  /** Agents on the pause stay paused on it (their state is theirs to change); nobody can choose it again. */
  async remove(session: Session, id: string): Promise<void> {
    const pause = await this.find(session, id);
    await softDeletePause(this.ctx.db, session.tenantId, pause.id);
  }
}
