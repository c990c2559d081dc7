import type { User } from '@atende/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { queryKeys } from '../../session/session';
import { homeFor } from './home';
import { SignInForm } from './SignInForm';

/**
 * /login inside the app (after a sign-out or an ended session): the same form as login.html; the
 * signed-in user is kept in the query cache and the router takes them home (`/` shows the no-access
 * page to a user no screen is meant for).
 */
export function LoginPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const onSignedIn = useCallback(
    (me: User) => {
      queryClient.setQueryData(queryKeys.me, me);
      void navigate(homeFor(me.roles.map((r) => r.name)) ?? '/', { replace: true });
    },
    [navigate, queryClient],
  );
  return <SignInForm onSignedIn={onSignedIn} />;
}
