import { canUseAdminArea, hasAnyRole, roleCovers } from '@atende/core';
import { Navigate } from 'react-router';
import { useMe, useTenant } from '../../session/session';
import { LoadingState } from '../../ui/states';
import { DashboardPage } from './DashboardPage';

const FIRST_STEPS_SEEN = 'atende:first-steps-seen';

/** /admin index: the dashboard for supervisors; first access of an admin goes to first steps (spec 000 §2). */
export function AdminIndex() {
  const me = useMe().data;
  const tenant = useTenant().data;
  if (!me || !tenant) return <LoadingState />;
  const roles = me.roles.map((r) => r.name);
  if (!canUseAdminArea(roles)) {
    return <Navigate to={hasAnyRole(roles, ['tenant_admin']) ? '/admin/tenants' : '/admin/campaigns'} replace />;
  }
  const needsFirstSteps = tenant.config.features.first_steps && !tenant.config.first_steps_completed && roleCovers(roles, 'admin');
  if (needsFirstSteps && !sessionStorage.getItem(FIRST_STEPS_SEEN)) {
    sessionStorage.setItem(FIRST_STEPS_SEEN, '1');
    return <Navigate to="/admin/first-steps" replace />;
  }
  return <DashboardPage />;
}
