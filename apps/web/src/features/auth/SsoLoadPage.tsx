import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys, saveLocalUser } from '../../session/session';
import { LoadingState } from '../../ui/states';
import { homeFor } from './home';

/** Spec 000 §2 /ssoload: load the user and workspace, then go to ?page=; on failure fall back to /login. */
export function SsoLoadPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const page = params.get('page');
    const safePage = page && page.startsWith('/') && !page.startsWith('//') ? page : null;
    (async () => {
      try {
        const me = (await api.getMe()).data;
        saveLocalUser(me);
        queryClient.setQueryData(queryKeys.me, me);
        queryClient.setQueryData(queryKeys.workspace, (await api.getMyWorkspace()).data);
        void navigate(safePage ?? homeFor(me.roles.map((r) => r.name)), { replace: true });
      } catch {
        const query = new URLSearchParams();
        if (params.get('max_agents_reached')) query.set('max_agents_reached', String(params.get('max_agents_reached')));
        if (params.get('domain')) query.set('domain', String(params.get('domain')));
        void navigate(`/login${query.size ? `?${query}` : ''}`, { replace: true });
      }
    })();
  }, [params, navigate, queryClient]);
  return <LoadingState />;
}
