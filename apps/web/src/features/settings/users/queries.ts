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
