import type { FeatureFlag, Role } from '@atende/contract';
import { hasAnyRole } from '@atende/core';
import { notifications } from '@mantine/notifications';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { useMe, useTenant } from '../session/session';
import { FEATURE_OFF, NO_PERMISSION } from './ErrorHandler';
import { LoadingState } from './states';

function Refuse({ message }: { message: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    notifications.show({ id: message, color: 'red', message: t(message) });
  }, [message, t]);
  return <Navigate to="/" replace />;
}

/** Spec 000 §2 route guard: a role covering one of `roles`, else the permission toast and home. */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const me = useMe();
  if (!me.data) return <LoadingState />;
  const held = me.data.roles.map((r) => r.name);
  if (!hasAnyRole(held, roles)) return <Refuse message={NO_PERMISSION} />;
  return <>{children}</>;
}

/** Spec 000 §2 feature-flag guard: 'Funcionalidade não ativada' and home. */
export function RequireFlag({ flag, children }: { flag: FeatureFlag; children: ReactNode }) {
  const tenant = useTenant();
  if (!tenant.data) return <LoadingState />;
  if (tenant.data.config.features[flag] !== true) return <Refuse message={FEATURE_OFF} />;
  return <>{children}</>;
}

export function useFlag(flag: FeatureFlag): boolean {
  const tenant = useTenant();
  return tenant.data?.config.features[flag] === true;
}
