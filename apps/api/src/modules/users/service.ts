import { AppError, rooms, type Role } from '@atende/contract';
import { agentAvailable, presentUser, reclaimPausedChats, returnAgentChats, type UserRow } from '@atende/conversations';
import { allows, roleCovers } from '@atende/core';
import {
  countLiveSectors,
  findLiveUser,
  findTenantPause,
  hashPassword,
  insertUser,
  isPlatformTenant,
  listWorkspaceUsers,
  Prisma,
  recordLoginEvent,
  releaseRemovedUserEmail,
  replaceUserSectors,
  revokeApiTokensOfUser,
  setUserPasswordHash,
  setUserPresence,
  softDeleteUser,
  updateUserProfile,
  userSectorIds,
  usersHoldingEmail,
  withTransaction,
} from '@atende/db';
import type { AppContext } from '../../context';
import { revokeUserApiTokens } from '../session/api-tokens';
import type { ClientInfo, SessionService } from '../session/service';
import type { Session } from '../session/session';

/** The path id of a user: their integer id or their uuid. */
const byId = (id: string) => (/^\d+$/.test(id) ? { id: Number(id) } : { uuid: id });

export class UserService {
  constructor(
    private readonly ctx: AppContext,
    private readonly sessions: SessionService,
  ) {}

  private async find(session: Session, id: string): Promise<UserRow> {
    const user = await findLiveUser(this.ctx.db, session.tenantId, byId(id));
    if (!user) throw new AppError('user_not_found', 'User not found');
    return user;
  }

  /**
   * The signed-in user with the roles this session acts with: those of its sign-in
   *, which are the user's, since a change of the user's roles ends their other sessions.
   */
  async me(session: Session) {
    const user = await this.find(session, String(session.userId));
    return presentUser({ ...user, roles: session.roles });
  }

  private announce(user: UserRow) {
    const payload = { tenant_uuid: user.tenantId, user: presentUser(user) };
    this.ctx.realtime.emit(rooms.user(user.uuid), 'update-user', payload);
    this.ctx.realtime.emit(rooms.metrics(user.tenantId), 'update-user', payload);
    return payload.user;
  }

  /** Pause with a reason, unpause, or go online/offline. */
  async updateMe(session: Session, body: { state?: 'online' | 'offline'; current_pause_uuid?: string | null; back_to_queue?: boolean }) {
    if (body.current_pause_uuid === undefined && body.state === undefined) {
      throw new AppError('missing_parameters', 'Missing parameters');
    }
    const data: { currentPauseId?: string | null; state?: 'online' | 'offline' | 'paused' } = {};
    if (body.current_pause_uuid) {
      const pause = await findTenantPause(this.ctx.db, session.tenantId, body.current_pause_uuid);
      if (!pause) throw new AppError('pause_not_found', 'Pause not found');
      data.currentPauseId = pause.id;
      data.state = 'paused';
    } else if (body.current_pause_uuid === null) {
      data.currentPauseId = null;
      data.state = 'online';
    }
    if (body.state) {
      if (data.currentPauseId && body.state === 'online') throw new AppError('pause_or_online', 'Choose a pause or go online, not both');
      data.state = body.state === 'online' ? 'online' : 'offline';
      if (body.state === 'online') data.currentPauseId = null;
    }
    const user = await setUserPresence(this.ctx.db, session.tenantId, session.userId, data);
    const announced = this.announce(user);
    // A pause with back_to_queue, or going offline, returns the active chats to the queue.
    if (data.state === 'paused') {
      if (body.back_to_queue === true) await returnAgentChats(this.ctx, session.tenantId, session.userId, 'pause');
    } else if (data.state === 'online') {
      // Chats returned to the queue at the pause come back first, then new work.
      await reclaimPausedChats(this.ctx, session.tenantId, session.userId);
      await agentAvailable(this.ctx, session.tenantId, session.userId);
    } else if (data.state === 'offline') await returnAgentChats(this.ctx, session.tenantId, session.userId, 'logoff');
    return announced;
  }

  /** Changes the caller's own password; the caller's other sessions end. */
  async changePassword(session: Session, id: string, password: string, oldPassword: string, client: ClientInfo) {
    const user = await this.find(session, id);
    if (user.id !== session.userId) throw new AppError('password_own_only', 'You can only change your own password');
    if (!(await this.sessions.verifyCurrentPassword(user, oldPassword, client))) {
      throw new AppError('wrong_current_password', 'Wrong current password');
    }
    const passwordHash = await hashPassword(password);
    await setUserPasswordHash(this.ctx.db, session.tenantId, user.id, passwordHash);
    await this.sessions.revokeSessions({ userId: user.id, notId: session.sessionId }, 'password_change');
    // The API tokens they made stop too (a stolen password may have made some).
    await revokeUserApiTokens(this.ctx.db, user.tenantId, user.id);
    return presentUser(user);
  }

  /**
   * An admin gives a user a new password: like a forced sign-off, every session of
   * theirs ends (browsers told first), and the API tokens they made stop. Not for one's own password
   * (that needs the current one) nor, unless the caller is an owner, for an owner's.
   */
  async resetPassword(session: Session, id: string, password: string) {
    this.assertUserAdmin(session);
    const user = await this.find(session, id);
    if (user.id === session.userId)
      throw new AppError('own_password_by_profile', 'Change your own password in your profile, with your current password');
    if ((user.roles as Role[]).includes('owner') && !session.roles.includes('owner'))
      throw new AppError('owner_password_owner_only', "Only an owner can set an owner's password");
    await this.replacePassword(user, password, 'password_reset', 'supervisor');
    return presentUser(await this.find(session, id));
  }

  /**
   * A new password set from outside the user's sessions (an admin's reset, a recovery code): the
   * password and the end of their API tokens commit together; every session ends right after.
   */
  async replacePassword(user: { id: number; tenantId: string }, password: string, reason: string, by: 'self' | 'supervisor') {
    const passwordHash = await hashPassword(password);
    await withTransaction(this.ctx.db, async (tx) => {
      await setUserPasswordHash(tx, user.tenantId, user.id, passwordHash);
      await revokeApiTokensOfUser(tx, user.tenantId, user.id);
    });
    await this.signOffEverywhere(user, reason, by);
  }

  /** A supervisor ends an agent's session: every session of theirs is revoked. */
  async forceOffline(session: Session, id: string) {
    if (!allows(session.roles, 'users.force_offline')) throw new AppError('forbidden', 'You do not have permission to do this');
    const user = await this.find(session, id);
    // Coverage: a supervisor ends an agent's or a supervisor's session, not a manager's.
    const covered = (user.roles as Role[]).every((role) => roleCovers(session.roles, role));
    if (user.id !== session.userId && !covered) throw new AppError('forbidden', 'You do not have permission to do this');
    // Admin "covers" owner, but only an owner removes or edits an owner (remove, update
    // below): an admin cannot force the owner offline either.
    if (user.id !== session.userId && (user.roles as Role[]).includes('owner') && !session.roles.includes('owner')) {
      throw new AppError('owner_sign_off_owner_only', 'Only an owner can end the session of an owner');
    }
    await this.signOffEverywhere(user, 'forced_offline', user.id === session.userId ? 'self' : 'supervisor');
    return presentUser(await this.find(session, id));
  }

  /** Ends every session of `user`: the browsers get update-user (is_logged false) before their sockets drop; login history says forced_logout. */
  private async signOffEverywhere(user: { id: number; tenantId: string }, reason: string, by: 'self' | 'supervisor') {
    await this.sessions.revokeSessions({ userId: user.id }, reason, async () => {
      await recordLoginEvent(this.ctx.db, { tenantId: user.tenantId, userId: user.id, event: 'forced_logout' });
      await this.sessions.takeUserOffline(user.tenantId, user.id, by);
    });
  }

  /** Managing users is for admin and owner (owner covers admin). */
  private assertUserAdmin(session: Session) {
    if (!roleCovers(session.roles, 'admin')) throw new AppError('forbidden', 'You do not have permission to do this');
  }

  /**
   * Who may hand out which role. tenant_admin reaches every tenant of the platform: it is a platform
   * role, held only by users of the platform tenant (a database trigger refuses it anywhere else), so
   * it is granted or taken only there, by a caller who already holds it (the platform's operators).
   * owner is granted and taken only by an owner, as only an owner may remove one (remove below).
   */
  private async assertMayChangeRoles(session: Session, before: readonly Role[], after: readonly Role[]) {
    const changed = [...before.filter((r) => !after.includes(r)), ...after.filter((r) => !before.includes(r))];
    if (changed.includes('tenant_admin')) {
      if (!session.roles.includes('tenant_admin') || !(await isPlatformTenant(this.ctx.db, session.tenantId)))
        throw new AppError('tenant_admin_role_locked', 'You cannot grant or remove the tenant_admin role');
    }
    if (changed.includes('owner') && !session.roles.includes('owner')) {
      throw new AppError('owner_role_owner_only', 'Only an owner can grant or remove the owner role');
    }
  }

  /** An email used by another live user of the tenant answers 'Email already being used'. */
  private async assertEmailFree(session: Session, email: string, exceptUserId?: number) {
    const holders = await usersHoldingEmail(this.ctx.db, session.tenantId, email, exceptUserId);
    if (holders.some((u) => u.deletedAt === null)) throw new AppError('user_email_taken', 'Email already being used');
    // A removed user keeps their history but gives their email back: (tenant, email) is unique.
    for (const u of holders) await releaseRemovedUserEmail(this.ctx.db, session.tenantId, u.id, email);
  }

  private emailTaken(error: unknown): never {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002')
      throw new AppError('user_email_taken', 'Email already being used');
    throw error;
  }

  /** Creates a user in the caller's workspace (rules are in the contract). */
  async create(session: Session, body: { username: string; email: string; password: string; roles: Role[] }) {
    this.assertUserAdmin(session);
    const roles = [...new Set(body.roles)];
    await this.assertMayChangeRoles(session, [], roles);
    await this.assertEmailFree(session, body.email);
    const passwordHash = await hashPassword(body.password);
    const user = await insertUser(this.ctx.db, session, { username: body.username, email: body.email, passwordHash, roles }).catch(
      (error: unknown) => this.emailTaken(error),
    );
    return presentUser(user);
  }

  /**
   * Edits a user's name, email and roles. A role change takes effect at the user's next session,
   * made immediate: their other sessions end with the change (writeUser), so
   * a demoted admin's open browser cannot keep creating channels, bots or integrations.
   */
  async update(session: Session, id: string, body: { username?: string; email?: string; roles?: Role[] }) {
    this.assertUserAdmin(session);
    const user = await this.find(session, id);
    const before = user.roles as Role[];
    if (before.includes('owner') && !session.roles.includes('owner'))
      throw new AppError('owner_edit_owner_only', 'Only an owner can edit an owner');
    const roles = body.roles ? [...new Set(body.roles)] : undefined;
    if (roles) {
      await this.assertMayChangeRoles(session, before, roles);
      // An admin cannot lock themselves out of user management.
      if (user.id === session.userId && !roleCovers(roles, 'admin'))
        throw new AppError('own_admin_role_kept', 'You cannot remove your own admin role');
    }
    if (body.email !== undefined && body.email !== user.email) await this.assertEmailFree(session, body.email, user.id);
    const data = {
      ...(body.username !== undefined ? { username: body.username } : {}),
      ...(body.email !== undefined ? { email: body.email } : {}),
      ...(roles ? { roles } : {}),
    };
    const updated = await this.sessions
      .writeUser(
        session,
        user.id,
        (tx) => updateUserProfile(tx, session.tenantId, user.id, data),
        async (row) => this.announce(row),
      )
      .catch((error: unknown) => this.emailTaken(error));
    return presentUser(updated);
  }

  /** The sectors `id` belongs to. */
  async sectors(session: Session, id: string): Promise<{ sector_uuids: string[] }> {
    this.assertUserAdmin(session);
    const user = await this.find(session, id);
    return { sector_uuids: await userSectorIds(this.ctx.db, session.tenantId, user.id) };
  }

  /** Replaces the sectors `id` belongs to; waiting conversations are offered again under the new membership. */
  async setSectors(session: Session, id: string, sectorUuids: string[]): Promise<{ sector_uuids: string[] }> {
    this.assertUserAdmin(session);
    const user = await this.find(session, id);
    const wanted = [...new Set(sectorUuids)];
    const found = await countLiveSectors(this.ctx.db, { tenantId: session.tenantId, workspaceId: user.workspaceId }, wanted);
    if (found !== wanted.length) throw new AppError('sector_not_found', 'Sector not found');
    await replaceUserSectors(this.ctx.db, session.tenantId, user.id, wanted);
    await agentAvailable(this.ctx, session.tenantId, user.id);
    return this.sectors(session, id);
  }

  async list(session: Session, role?: Role) {
    const users = await listWorkspaceUsers(this.ctx.db, session, role);
    return users.map(presentUser);
  }

  /** Removes a user; their history stays, their sessions end. */
  async remove(session: Session, id: string) {
    this.assertUserAdmin(session);
    const user = await this.find(session, id);
    if (user.id === session.userId) throw new AppError('own_user_kept', 'You cannot remove yourself');
    if ((user.roles as Role[]).includes('owner') && !session.roles.includes('owner')) {
      throw new AppError('owner_remove_owner_only', 'Only an owner can remove an owner');
    }
    // The database ends their sessions with the removal; they are signed off before their sockets drop.
    await this.sessions.writeUser(
      session,
      user.id,
      (tx) => softDeleteUser(tx, session.tenantId, user.id),
      () => this.sessions.takeUserOffline(user.tenantId, user.id, 'system'),
    );
  }
}
