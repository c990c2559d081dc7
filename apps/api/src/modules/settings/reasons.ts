import { AppError } from '@atende/contract';
import {
  conversationReasonNameTaken,
  findConversationReason,
  insertConversationReason,
  renameConversationReason,
  softDeleteConversationReason,
} from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';

/** A conversation (finish) reason as the settings routes answer it. */
export interface ReasonItem {
  uuid: string;
  name: string;
}

const present = (r: { id: string; name: string }): ReasonItem => ({ uuid: r.id, name: r.name });

/** Conversation (finish) reasons: a name no other live reason has. The list is in the conversations module. */
export class ReasonService {
  constructor(private readonly ctx: AppContext) {}

  private async find(session: Session, id: string) {
    const row = await findConversationReason(this.ctx.db, session.tenantId, id);
    if (!row) throw new AppError('conversation_reason_not_found', 'Conversation reason not found');
    return row;
  }

  private async nameFree(session: Session, name: string, except?: string): Promise<void> {
    const taken = await conversationReasonNameTaken(this.ctx.db, session.tenantId, name, except);
    if (taken) throw alreadyUsed('conversation_reason_name_taken', 'name', 'A conversation reason with this name already exists');
  }

  async create(session: Session, name: string): Promise<ReasonItem> {
    await this.nameFree(session, name);
    return present(await insertConversationReason(this.ctx.db, session.tenantId, name));
  }

  async update(session: Session, id: string, name: string): Promise<ReasonItem> {
    const reason = await this.find(session, id);
    await this.nameFree(session, name, reason.id);
    return present(await renameConversationReason(this.ctx.db, session.tenantId, reason.id, name));
  }

  /** Conversations finished with the reason keep it. */
  async remove(session: Session, id: string): Promise<void> {
    const reason = await this.find(session, id);
    await softDeleteConversationReason(this.ctx.db, session.tenantId, reason.id);
  }
}
