export * from './route';
export * from './errors';
export * from './common';
export * from './roles';
export * from './tenants';
export * from './users';
export * from './realtime';
export * from './jobs';
export * from './health';
import * as tenants from './tenants';
import * as users from './users';
import { health } from './health';

/** Every route of the api, for the sdk and the OpenAPI document. */
export const routes = {
  health,
  login: users.login,
  loginWithCode: users.loginWithCode,
  logout: users.logout,
  getMe: users.getMe,
  updateMe: users.updateMe,
  updateUser: users.updateUser,
  listUsers: users.listUsers,
  deleteUser: users.deleteUser,
  getLoginQrCode: users.getLoginQrCode,
  getMyTenant: tenants.getMyTenant,
  listTenants: tenants.listTenants,
  getTenant: tenants.getTenant,
  configureTenant: tenants.configureTenant,
  getMyWorkspace: tenants.getMyWorkspace,
  updateMyWorkspace: tenants.updateMyWorkspace,
} as const;
export type Routes = typeof routes;
