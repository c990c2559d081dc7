import { allows, canUseAdminArea, mayUse, roleCovers } from '@atende/core';
import { Navigate } from 'react-router';
import { useMe, useTenant } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { NoAccessPage } from '../auth/NoAccessPage';
import { DashboardPage } from './DashboardPage';
import { FIRST_STEPS_SHOWN } from './firstSteps';

/**
 * The /admin index, the dashboard: on first access an admin goes to /admin/first-steps
 * while the first_steps feature is on and not yet completed (once per browser session, so the
 * dashboard stays reachable). Users of the area without the dashboard go to their own section.
 */
export function AdminIndex() {
  const me = useMe().data;
  const tenant = useTenant();
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!me || !tenant.data) return <LoadingState />;
  const roles = me.roles.map((r) => r.name);
  const { features, first_steps_completed } = tenant.data.config;
  if (!canUseAdminArea(roles)) {
    if (allows(roles, 'tenants')) return <Navigate to="/admin/tenants" replace />;
    if (mayUse(roles, features, 'campaigns')) return <Navigate to="/admin/campaigns" replace />;
    return <NoAccessPage />;
  }
  // The first-steps page marks itself shown once it is on screen (no write during render: React may
  // render this twice and keep only the second).
  if (features.first_steps && !first_steps_completed && roleCovers(roles, 'admin') && !sessionStorage.getItem(FIRST_STEPS_SHOWN)) {
    return <Navigate to="/admin/first-steps" replace />;
  }
  return <DashboardPage />;
}
