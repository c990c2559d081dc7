import type { FeatureFlag, Role } from '@atende/contract';
import { hasAnyRole } from '@atende/core';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router';
import { FEATURE_OFF, NO_PERMISSION } from '../api/errors';
import { useMe, useTenant } from '../session/session';
import { ErrorState, LoadingState } from './states';
import { toastError } from './toasts';

function Refuse({ message }: { message: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    toastError(t(message));
  }, [message, t]);
  return <Navigate to="/" replace />;
}

/** Spec 000 §2 route guard: a role covering one of `roles`, else the permission toast and home. */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const me = useMe();
  if (me.isError) return <ErrorState onRetry={() => void me.refetch()} />;
  if (!me.data) return <LoadingState />;
  if (
    !hasAnyRole(
      me.data.roles.map((r) => r.name),
      roles,
    )
  )
    return <Refuse message={NO_PERMISSION} />;
  return <>{children}</>;
}

/** Spec 000 §2 feature-flag guard: 'Funcionalidade não ativada' and home. */
export function RequireFlag({ flag, children }: { flag: FeatureFlag; children: ReactNode }) {
  const tenant = useTenant();
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!tenant.data) return <LoadingState />;
  if (tenant.data.config.features[flag] !== true) return <Refuse message={FEATURE_OFF} />;
  return <>{children}</>;
}

/** Role and flag guards in the order of spec 000 §2 (role first, then the feature flag); guards child routes without children. */
export function Guard({ roles, flags = [], children }: { roles?: readonly Role[]; flags?: readonly FeatureFlag[]; children?: ReactNode }) {
  let guarded = children === undefined ? <Outlet /> : <>{children}</>;
  for (const flag of [...flags].reverse()) guarded = <RequireFlag flag={flag}>{guarded}</RequireFlag>;
  return roles ? <RequireRole roles={roles}>{guarded}</RequireRole> : guarded;
}

export function useFlag(flag: FeatureFlag): boolean {
  const tenant = useTenant();
  return tenant.data?.config.features[flag] === true;
}
