import type { BodyInput, routes } from '@atende/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { LIVE } from '../../../realtime/liveQueries';
import { queryKeys } from '../../../session/session';

/** Every user of the workspace: GET /api/v1/users (unpaged). */
export function useUsers() {
  return useQuery({ queryKey: queryKeys.users(), queryFn: async () => (await api.listUsers({ query: {} })).data, meta: LIVE });
}

/** After a change every users list (the agent lists too) is refetched. */
function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['users'] });
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (body: BodyInput<typeof routes.createUser>) => (await api.createUser({ body })).data,
    onSuccess: invalidate,
  });
}

export function useEditUser(id: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (body: { username: string; email: string; roles: BodyInput<typeof routes.createUser>['roles'] }) =>
      (await api.updateUser({ params: { id }, body })).data,
    onSuccess: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({ mutationFn: (id: string) => api.deleteUser({ params: { id } }), onSuccess: invalidate });
}

/** The sectors a user belongs to: GET /api/v1/users/:id/sectors; not fetched for a new user. */
export function useUserSectors(id: string | null) {
  return useQuery({
    queryKey: ['users', id, 'sectors'],
    queryFn: async () => (await api.getUserSectors({ params: { id: id! } })).data.sector_uuids,
    enabled: id !== null,
  });
}

/** The workspace's sectors, to choose from. */
export function useSectorChoices() {
  return useQuery({ queryKey: ['sectors', 'all'], queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
}

/** PUT /api/v1/users/:id/sectors. */
export function useSetUserSectors() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async ({ id, sectorUuids }: { id: string; sectorUuids: string[] }) =>
      (await api.setUserSectors({ params: { id }, body: { sector_uuids: sectorUuids } })).data,
    onSuccess: invalidate,
  });
}
