import {
  createUser,
  deleteUser,
  getLoginQrCode,
  getMe,
  getUserSectors,
  listUsers,
  resetUserPassword,
  setUserSectors,
  updateMe,
  updateUser,
} from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import { clientInfo } from '../session/routes';
import type { SessionService } from '../session/service';
import type { UserService } from './service';

export function userRoutes(app: FastifyInstance, users: UserService, sessions: SessionService): void {
  bind(app, getMe, 'signed_in', async ({ session }) => ({ data: await users.me(session) }));
  bind(app, updateMe, 'signed_in', async ({ session, body }) => ({ data: await users.updateMe(session, body) }));
  bind(app, updateUser, 'users.update', async ({ session, params, body, request }) => {
    if (body.password !== undefined) {
      return { data: await users.changePassword(session, params.id, body.password, body.old_password ?? '', clientInfo(request)) };
    }
    if (body.state !== undefined) return { data: await users.forceOffline(session, params.id) };
    return { data: await users.update(session, params.id, body) };
  });
  bind(app, createUser, 'users.manage', async ({ session, body }) => ({ data: await users.create(session, body) }));
  bind(app, resetUserPassword, 'users.manage', async ({ session, params, body }) => ({
    data: await users.resetPassword(session, params.id, body.password),
  }));
  bind(app, getUserSectors, 'users.manage', async ({ session, params }) => ({ data: await users.sectors(session, params.id) }));
  bind(app, setUserSectors, 'users.manage', async ({ session, params, body }) => ({
    data: await users.setSectors(session, params.id, body.sector_uuids),
  }));
  bind(app, listUsers, 'users.list', async ({ session, query }) => ({ data: await users.list(session, query.role) }));
  bind(app, deleteUser, 'users.manage', async ({ session, params }) => {
    await users.remove(session, params.id);
    return { data: { ok: true as const } };
  });
  bind(app, getLoginQrCode, 'qr_login', async ({ session }) => ({ data: await sessions.issueLoginCode(session) }));
}
