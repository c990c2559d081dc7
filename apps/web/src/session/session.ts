import type { Role, Tenant, Workspace } from '@atende/contract';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { homePathFor, isAgent, isAgentScreenPath } from '@atende/core';
import { api, quietApi } from '../api/client';
import { workstationQueries } from '../features/workstation/listQueries';
import { LIVE } from '../realtime/liveQueries';
import { LOCAL_USER_KEY, readLocalUser, saveLocalUser, type LocalUser } from './localUser';

export { LOCAL_USER_KEY, readLocalUser, saveLocalUser, type LocalUser } from './localUser';

/** Query keys per resource; realtime events patch or invalidate these. */
export const queryKeys = {
  me: ['me'] as const,
  tenant: ['tenant', 'me'] as const,
  workspace: ['workspace', 'me'] as const,
  users: (role?: Role) => ['users', role ?? 'all'] as const,
  tenants: ['tenants'] as const,
  tenantDetail: (id: string) => ['tenants', id] as const,
  loginQrCode: ['login-qr-code'] as const,
};

/** The signed-in user, tenant and workspace: one definition for the hooks and the start-up prefetch. */
export const sessionQueries = {
  me: queryOptions({
    queryKey: queryKeys.me,
    queryFn: async () => {
      const { data } = await api.getMe();
      saveLocalUser(data);
      return data;
    },
    staleTime: 30_000,
    meta: LIVE,
  }),
  tenant: queryOptions({
    queryKey: queryKeys.tenant,
    queryFn: async (): Promise<Tenant> => (await api.getMyTenant()).data,
    staleTime: 30_000,
    meta: LIVE,
  }),
  workspace: queryOptions({
    queryKey: queryKeys.workspace,
    queryFn: async (): Promise<Workspace> => (await api.getMyWorkspace()).data,
    staleTime: 60_000,
    meta: LIVE,
  }),
};

export function useMe() {
  return useQuery(sessionQueries.me);
}
export function useTenant() {
  return useQuery(sessionQueries.tenant);
}
export function useWorkspace() {
  return useQuery(sessionQueries.workspace);
}

/**
 * Whether this page load shows the kept user the agent's screen: at /app, or at / (where Home sends
 * them to their home). Its code and its list are then asked for at start-up.
 */
export function opensAgentScreen(pathname: string, local: LocalUser | null = readLocalUser()): boolean {
  if (local === null || !isAgent(local.roles)) return false;
  return isAgentScreenPath(pathname === '/' ? homePathFor(local.roles) : pathname);
}

/**
 * At start-up, a browser that kept a signed-in user asks for the session beside the code and the
 * dictionary rather than after them, and for the agent's list too when the page
 * opens the agent's screen, rather than after the layouts rendered; a failure is left to the hooks to show.
 */
export function prefetchSession(queryClient: QueryClient, pathname: string): void {
  const local = readLocalUser();
  if (local === null) return;
  void queryClient.prefetchQuery(sessionQueries.me);
  void queryClient.prefetchQuery(sessionQueries.tenant);
  void queryClient.prefetchQuery(sessionQueries.workspace);
  if (!opensAgentScreen(pathname, local)) return;
  void queryClient.prefetchQuery(workstationQueries.offered);
  void queryClient.prefetchQuery(workstationQueries.waitingQueue);
}

/** Forgets everything about the signed-in user in this tab. */
export function clearLocalSession(queryClient: QueryClient): void {
  localStorage.removeItem(LOCAL_USER_KEY);
  queryClient.clear();
}

/**
 * Logout: POST /api/v1/logout (form-encoded), then the local session is cleared
 * whatever the answer: a session the server already ended is just as gone.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return async () => {
    try {
      await quietApi.logout({ body: {} });
    } catch {
      // nothing to undo: the local data goes anyway
    } finally {
      clearLocalSession(queryClient);
    }
  };
}
