import { canUseAdminArea, hasAnyRole } from '@atende/core';
import { AppShell, Badge, Group, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useMe, useTenant, useWorkspace } from '../../session/session';
import { RequireRole } from '../../ui/guards';
import { LoadingState } from '../../ui/states';
import { ConnectionStatus } from './ConnectionStatus';
import { NavBar, type NavItem } from './NavBar';
import { UserMenu } from './UserMenu';

const TITLES: Record<string, string> = {
  '': 'Dashboard', 'dashboard-omnichannel': 'Omnichannel panel', reports: 'Reports', contacts: 'Contacts', campaigns: 'Campaigns',
  settings: 'Settings', tenants: 'Tenants', 'first-steps': 'First steps',
};

/** Admin area (spec 002 §2): header, left icon navigation, main area, footer tenant > workspace. */
export function AdminLayout() {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant().data;
  const workspace = useWorkspace().data;
  const { pathname } = useLocation();
  if (!me || !tenant) return <LoadingState />;
  const roles = me.roles.map((r) => r.name);
  const features = tenant.config.features;
  const supervisor = canUseAdminArea(roles);
  const items: NavItem[] = [];
  if (supervisor) items.push({ to: '/admin', label: t('Dashboard'), end: true });
  if (supervisor && features.omnichannel_dashboard) items.push({ to: '/admin/dashboard-omnichannel', label: t('Omnichannel panel'), badge: <Badge size="xs">beta</Badge> });
  if (supervisor) items.push({ to: '/admin/reports', label: t('Reports') }, { to: '/admin/contacts', label: t('Contacts') });
  if (hasAnyRole(roles, ['campaign_manager']) && features.outbound_campaign) items.push({ to: '/admin/campaigns', label: t('Campaigns') });
  if (supervisor) items.push({ to: '/admin/settings', label: t('Settings') });
  if (hasAnyRole(roles, ['tenant_admin'])) items.push({ to: '/admin/tenants', label: t('Tenants') });
  const segment = pathname.split('/')[2] ?? '';
  const title = t(TITLES[segment] ?? segment);

  return (
    <RequireRole roles={['supervisor', 'tenant_admin', 'campaign_manager']}>
      <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 0 }} footer={{ height: 32 }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Group gap="xs">
              <Title order={4}>{title}</Title>
              {workspace && <Text c="dimmed">· {workspace.name}</Text>}
            </Group>
            <Group gap="md">
              <ConnectionStatus />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar>
          <NavBar items={items} label={t('Supervisor panel')} />
        </AppShell.Navbar>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
        <AppShell.Footer px="md">
          <Text size="xs" c="dimmed" lh="32px" data-testid="admin-footer">
            {tenant.name} &gt; {workspace?.name ?? ''}
          </Text>
        </AppShell.Footer>
      </AppShell>
    </RequireRole>
  );
}
