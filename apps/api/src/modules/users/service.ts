import { AppError, rooms, type Role } from '@atende/contract';
import { agentAvailable, presentUser, returnAgentChats, userInclude, type UserRow } from '@atende/conversations';
import { roleCovers } from '@atende/core';
import { hashPassword, scoped } from '@atende/db';
import type { AppContext } from '../../context';
import type { ClientInfo, SessionService } from '../session/service';
import type { Session } from '../session/session';

/** The path id of a user: their integer id or their uuid. */
const byId = (id: string) => (/^\d+$/.test(id) ? { id: Number(id) } : { uuid: id });

export class UserService {
  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: SessionService,
  ) {}

  private db(session: Session) {
    return scoped(this.ctx.db, { tenantId: session.tenantId });
  }

  private async find(session: Session, id: string): Promise<UserRow> {
    const user = await this.db(session).user.findFirst({ where: { ...byId(id), deletedAt: null }, include: userInclude });
    if (!user) throw new AppError('not_found', 'User not found');
    return user;
  }

  async me(session: Session) {
    return presentUser(await this.find(session, String(session.userId)));
  }

  private announce(user: UserRow) {
    const payload = { tenant_uuid: user.tenantId, user: presentUser(user) };
    this.ctx.realtime.emit(rooms.user(user.uuid), 'update-user', payload);
    this.ctx.realtime.emit(rooms.metrics(user.tenantId), 'update-user', payload);
    return payload.user;
  }

  /** Pause with a reason, unpause, or go online/offline (spec 000 §4). */
  async updateMe(session: Session, body: { state?: 'online' | 'offline'; current_pause_uuid?: string | null; back_to_queue?: boolean }) {
    const db = this.db(session);
    if (body.current_pause_uuid === undefined && body.state === undefined) {
      throw new AppError('validation_failed', 'Missing parameters');
    }
    const data: { currentPauseId?: string | null; state?: 'online' | 'offline' | 'paused' } = {};
    if (body.current_pause_uuid) {
      const pause = await db.pause.findFirst({ where: { id: body.current_pause_uuid, deletedAt: null } });
      if (!pause) throw new AppError('not_found', 'Pause not found');
      data.currentPauseId = pause.id;
      data.state = 'paused';
    } else if (body.current_pause_uuid === null) {
      data.currentPauseId = null;
      data.state = 'online';
    }
    if (body.state) {
      if (data.currentPauseId && body.state === 'online') throw new AppError('bad_request', 'Choose a pause or go online, not both');
      data.state = body.state === 'online' ? 'online' : 'offline';
      if (body.state === 'online') data.currentPauseId = null;
    }
    const user = await db.user.update({ where: { id: session.userId }, data, include: userInclude });
    const announced = this.announce(user);
    // Spec 000 §4: a pause with back_to_queue, or going offline, returns the active chats to the queue.
    if (data.state === 'paused') {
      if (body.back_to_queue === true) await returnAgentChats(this.ctx, session.tenantId, session.userId, 'pause');
    } else if (data.state === 'online') await agentAvailable(this.ctx, session.tenantId, session.userId);
    else if (data.state === 'offline') await returnAgentChats(this.ctx, session.tenantId, session.userId, 'logoff');
    return announced;
  }

  /** Changes the caller's own password (spec 000 §5); the caller's other sessions end. */
  async changePassword(session: Session, id: string, password: string, oldPassword: string, client: ClientInfo) {
    const user = await this.find(session, id);
    if (user.id !== session.userId) throw new AppError('forbidden', 'You can only change your own password');
    if (!(await this.sessions.verifyCurrentPassword(user, oldPassword, client))) {
      throw new AppError('wrong_current_password', 'Wrong current password');
    }
    const passwordHash = await hashPassword(password);
    await this.db(session).user.update({ where: { id: user.id }, data: { passwordHash } });
    await this.sessions.revokeSessions({ userId: user.id, notId: session.sessionId }, 'password_change');
    return presentUser(user);
  }

  /** A supervisor ends an agent's session (spec 000 §4): every session of theirs is revoked. */
  async forceOffline(session: Session, id: string) {
    if (!roleCovers(session.roles, 'supervisor')) throw new AppError('forbidden', 'You do not have permission to do this');
    const user = await this.find(session, id);
    // spec 000 §6 coverage: a supervisor ends an agent's or a supervisor's session, not a manager's.
    const covered = (user.roles as Role[]).every((role) => roleCovers(session.roles, role));
    if (user.id !== session.userId && !covered) throw new AppError('forbidden', 'You do not have permission to do this');
    // The target's browsers get update-user (is_logged false) before their sockets are dropped.
    await this.sessions.revokeSessions({ userId: user.id }, 'forced_offline', async () => {
      await this.ctx.db.loginHistory.create({ data: { tenantId: user.tenantId, userId: user.id, event: 'forced_logout' } });
      await this.sessions.takeUserOffline(user.tenantId, user.id, user.id === session.userId ? 'self' : 'supervisor');
    });
    return presentUser(await this.find(session, id));
  }

  async list(session: Session, role?: Role) {
    const users = await this.db(session).user.findMany({
      where: { deletedAt: null, workspaceId: session.workspaceId, ...(role ? { roles: { has: role } } : {}) },
      include: userInclude,
      orderBy: { username: 'asc' },
    });
    return users.map(presentUser);
  }

  /** Removes a user; their history stays, their sessions end. */
  async remove(session: Session, id: string) {
    const user = await this.find(session, id);
    if (user.id === session.userId) throw new AppError('bad_request', 'You cannot remove yourself');
    if ((user.roles as Role[]).includes('owner') && !session.roles.includes('owner')) {
      throw new AppError('forbidden', 'Only an owner can remove an owner');
    }
    await this.db(session).user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
    await this.sessions.revokeSessions({ userId: user.id }, 'deleted', () => this.sessions.takeUserOffline(user.tenantId, user.id, 'system'));
  }
}
