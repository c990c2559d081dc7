import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setApiErrorListener } from '../api/client';
import { errorText, SESSION_STARTING_PATHS } from '../api/errors';
import { clearLocalSession } from '../session/session';

export const NO_PERMISSION = 'Você não tem permissão para acessar essa página';
export const FEATURE_OFF = 'Funcionalidade não ativada';

/**
 * The shared error handler of spec 000 §8 / 002 §8, installed once: 401/408 end the session with
 * 'Credenciais inválidas', 403 goes home with the permission toast, other failures show the
 * server's (translated) message or the status fallback.
 */
export function ErrorHandler() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  useEffect(() => {
    setApiErrorListener((error, route) => {
      if (SESSION_STARTING_PATHS.has(route.path)) return; // the login form shows these itself
      if (error.status === 401 || error.status === 408) {
        clearLocalSession(queryClient);
        // Simply not signed in yet: go to the login page without a toast.
        if (error.code === 'unauthorized' && route.path === '/api/v1/users/me') {
          void navigate('/login', { replace: true });
          return;
        }
        notifications.show({ id: 'session-ended', color: 'red', message: t('Credenciais inválidas') });
        void navigate('/login', { replace: true });
        return;
      }
      if (error.status === 403 && error.code === 'forbidden' && route.method === 'GET') {
        notifications.show({ id: 'no-permission', color: 'red', message: t(NO_PERMISSION) });
        void navigate('/', { replace: true });
        return;
      }
      notifications.show({ color: 'red', message: errorText(error, t) });
    });
  }, [navigate, queryClient, t]);
  return null;
}
