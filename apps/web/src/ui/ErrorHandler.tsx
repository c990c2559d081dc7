import type { ApiError } from '@atende/sdk';
import type { RouteAddress } from '@atende/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setApiErrorListener } from '../api/client';
import { errorText, FEATURE_OFF, NO_PERMISSION, SESSION_ENDED, SESSION_STARTING_PATHS } from '../api/errors';
import { clearLocalSession, readLocalUser } from '../session/session';
import { toastError } from './toasts';

/**
 * The shared error handler, installed once and reached by every call
 * through the sdk's onError:
 * - 401/408 end the local session with 'Credenciais inválidas' and go to /login (the sign-in form
 *   shows its own 401; a visitor who never signed in in this browser goes to /login without a toast);
 * - 403 goes home with 'Você não tem permissão para acessar essa página' ('Funcionalidade não
 *   ativada' when a feature flag is off);
 * - anything else shows the server's (translated) message or the status fallback.
 */
export function ErrorHandler() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  // The listener lives for the whole app; read the latest navigate/t through refs.
  const latest = useRef({ navigate, t });
  latest.current = { navigate, t };

  useEffect(() => {
    setApiErrorListener((error: ApiError, route: RouteAddress) => {
      const { navigate: go, t: tr } = latest.current;
      // Failed calls are logged, then shown.
      console.warn(`api: ${route.method} ${route.path} failed with ${error.status} (${error.code})`);
      if (SESSION_STARTING_PATHS.has(route.path)) return;
      if (error.status === 401 || error.status === 408) {
        const hadSession = readLocalUser() !== null;
        clearLocalSession(queryClient);
        if (hadSession || error.code !== 'unauthorized') toastError(tr(SESSION_ENDED));
        void go('/login', { replace: true });
        return;
      }
      if (error.status === 403) {
        toastError(tr(error.code === 'feature_disabled' ? FEATURE_OFF : NO_PERMISSION));
        void go('/', { replace: true });
        return;
      }
      toastError(errorText(error, tr));
    });
    return () => setApiErrorListener(() => undefined);
  }, [queryClient]);
  return null;
}
