import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { quietApi } from '../../api/client';
import { queryKeys, saveLocalUser } from '../../session/session';
import { LoadingState } from '../../ui/states';
import { homeFor, safeInternalPath } from './home';

/**
 * /ssoload: loads the user and workspace, then goes to ?page=. On failure it goes to
 * ?page= (else /login) carrying the max_agents_reached flag and the domain from the query. With
 * ?jwt= (a token from GET /sso/domain_switch/jwt on another domain) it first signs
 * in with it (once: the token works once, and StrictMode runs the effect twice).
 */
let switching: { jwt: string; done: Promise<unknown> } | null = null;
function signInOnce(jwt: string): Promise<unknown> {
  if (switching?.jwt !== jwt) switching = { jwt, done: quietApi.loginWithDomainSwitchJwt({ body: { jwt } }) };
  return switching.done;
}

export function SsoLoadPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useEffect(() => {
    const page = safeInternalPath(params.get('page'));
    const jwt = params.get('jwt');
    let cancelled = false;
    void (async () => {
      try {
        if (jwt) await signInOnce(jwt);
        const [me, workspace] = await Promise.all([quietApi.getMe(), quietApi.getMyWorkspace()]);
        if (cancelled) return;
        saveLocalUser(me.data);
        queryClient.setQueryData(queryKeys.me, me.data);
        queryClient.setQueryData(queryKeys.workspace, workspace.data);
        void navigate(page ?? homeFor(me.data.roles.map((r) => r.name)) ?? '/', { replace: true });
      } catch {
        if (cancelled) return;
        const query = new URLSearchParams();
        for (const name of ['max_agents_reached', 'domain']) {
          const value = params.get(name);
          if (value) query.set(name, value);
        }
        const target = page ?? '/login';
        void navigate(query.size ? `${target}${target.includes('?') ? '&' : '?'}${query}` : target, { replace: true });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [params, navigate, queryClient]);
  return <LoadingState />;
}
