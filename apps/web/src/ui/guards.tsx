import type { FeatureFlag, Role } from '@atende/contract';
import { allows, hasAnyRole, PERMISSIONS, type Permission, type PermissionName } from '@atende/core';
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

/** Route guard: a role covering one of `roles`, else the permission toast and home. */
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

/** Feature-flag guard: 'Funcionalidade não ativada' and home. */
export function RequireFlag({ flag, children }: { flag: FeatureFlag; children: ReactNode }) {
  const tenant = useTenant();
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!tenant.data) return <LoadingState />;
  if (tenant.data.config.features[flag] !== true) return <Refuse message={FEATURE_OFF} />;
  return <>{children}</>;
}

/** Route guard for a capability of the role matrix (PERMISSIONS in @atende/core, which the api enforces too). */
export function RequirePermission({ permission, children }: { permission: PermissionName; children: ReactNode }) {
  const me = useMe();
  if (me.isError) return <ErrorState onRetry={() => void me.refetch()} />;
  if (!me.data) return <LoadingState />;
  if (
    !allows(
      me.data.roles.map((r) => r.name),
      permission,
    )
  )
    return <Refuse message={NO_PERMISSION} />;
  return <>{children}</>;
}

/**
 * Role and flag guards in order (role first, then the feature flag); guards child
 * routes without children. `permission` names a row of the role matrix: its roles and its flag.
 */
export function Guard({
  roles,
  permission,
  flags = [],
  children,
}: {
  roles?: readonly Role[];
  permission?: PermissionName;
  flags?: readonly FeatureFlag[];
  children?: ReactNode;
}) {
  let guarded = children === undefined ? <Outlet /> : <>{children}</>;
  const row: Permission | undefined = permission ? PERMISSIONS[permission] : undefined;
  const allFlags = row?.flag && !flags.includes(row.flag) ? [row.flag, ...flags] : flags;
  for (const flag of [...allFlags].reverse()) guarded = <RequireFlag flag={flag}>{guarded}</RequireFlag>;
  if (permission) guarded = <RequirePermission permission={permission}>{guarded}</RequirePermission>;
  return roles ? <RequireRole roles={roles}>{guarded}</RequireRole> : guarded;
}

export function useFlag(flag: FeatureFlag): boolean {
  const tenant = useTenant();
  return tenant.data?.config.features[flag] === true;
}
