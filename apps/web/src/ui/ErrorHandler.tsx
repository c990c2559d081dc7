import type { ApiError } from '@atende/sdk';
import type { RouteAddress } from '@atende/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setApiErrorListener } from '../api/client';
import {
  errorText,
  FEATURE_OFF,
  FEATURE_OFF_CODES,
  NO_PERMISSION,
  NOT_SIGNED_IN_CODES,
  SESSION_ENDED,
  SESSION_STARTING_PATHS,
} from '../api/errors';
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
  // The listener lives for the whole app; as an effect event it always sees the latest navigate/t.
  const onApiError = useEffectEvent((error: ApiError, route: RouteAddress) => {
    // Failed calls are logged, then shown.
    console.warn(`api: ${route.method} ${route.path} failed with ${error.status} (${error.code})`);
    if (SESSION_STARTING_PATHS.has(route.path)) return;
    if (error.status === 401 || error.status === 408) {
      const hadSession = readLocalUser() !== null;
      clearLocalSession(queryClient);
      if (hadSession || !NOT_SIGNED_IN_CODES.has(error.code)) toastError(t(SESSION_ENDED));
      void navigate('/login', { replace: true });
      return;
    }
    if (error.status === 403) {
      toastError(t(FEATURE_OFF_CODES.has(error.code) ? FEATURE_OFF : NO_PERMISSION));
      void navigate('/', { replace: true });
      return;
    }
    toastError(errorText(error, t));
  });

  useEffect(() => {
    setApiErrorListener((error, route) => onApiError(error, route));
    return () => setApiErrorListener(() => undefined);
  }, []);
  return null;
}
