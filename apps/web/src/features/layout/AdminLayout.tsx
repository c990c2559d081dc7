import { allows, canUseAdminArea, mayUse } from '@atende/core';
import { AppShell, Badge, Group, Text, Title } from '@mantine/core';
import {
  IconBuildingCommunity,
  IconChartBar,
  IconLayoutDashboard,
  IconMessages,
  IconSettings,
  IconSpeakerphone,
  IconUsers,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useMe, useTenant, useWorkspace } from '../../session/session';
import { RequireRole } from '../../ui/guards';
import { ErrorState, LoadingState } from '../../ui/states';
import { ConnectionStatus } from './ConnectionStatus';
import { NAV_WIDTH, NavBar, NavToggle, useNavFolded, type NavItem } from './NavBar';
import { UserMenu } from './UserMenu';

/** Page titles by the first path segment after /admin. */
const TITLES: Record<string, string> = {
  '': 'Dashboard',
  'dashboard-omnichannel': 'Omnichannel panel',
  reports: 'Reports',
  contacts: 'Contacts',
  campaigns: 'Campaigns',
  settings: 'Settings',
  tenants: 'Tenants',
  'first-steps': 'First steps',
};
const ICON = { size: 20, stroke: 1.6 } as const;

/**
 * Admin area: header with the page title and workspace name, left icon navigation,
 * main area and a footer "tenant name > workspace name". Open to supervisor, manager and admin
 * (owner covers admin), and to tenant_admin and campaign_manager for their own sections.
 */
export function AdminLayout() {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant();
  const workspace = useWorkspace().data;
  const { pathname } = useLocation();
  const [folded, toggleNav] = useNavFolded();
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!me || !tenant.data) return <LoadingState />;
  const roles = me.roles.map((r) => r.name);
  const features = tenant.data.config.features;
  const supervisor = canUseAdminArea(roles);
  const items: NavItem[] = [];
  if (supervisor) items.push({ to: '/admin', label: t('Dashboard'), icon: <IconLayoutDashboard {...ICON} />, end: true });
  if (supervisor && features.omnichannel_dashboard) {
    items.push({
      to: '/admin/dashboard-omnichannel',
      label: t('Omnichannel panel'),
      icon: <IconMessages {...ICON} />,
      badge: (
        <Badge size="xs" color="grape">
          {t('beta')}
        </Badge>
      ),
    });
  }
  if (supervisor) {
    items.push(
      { to: '/admin/reports', label: t('Reports'), icon: <IconChartBar {...ICON} /> },
      { to: '/admin/contacts', label: t('Contacts'), icon: <IconUsers {...ICON} /> },
    );
  }
  if (mayUse(roles, features, 'campaigns'))
    items.push({ to: '/admin/campaigns', label: t('Campaigns'), icon: <IconSpeakerphone {...ICON} /> });
  if (supervisor) items.push({ to: '/admin/settings', label: t('Settings'), icon: <IconSettings {...ICON} /> });
  if (allows(roles, 'tenants')) items.push({ to: '/admin/tenants', label: t('Tenants'), icon: <IconBuildingCommunity {...ICON} /> });
  const segment = pathname.split('/')[2] ?? '';
  const title = t(TITLES[segment] ?? segment);

  return (
    <RequireRole roles={['supervisor', 'tenant_admin', 'campaign_manager']}>
      <AppShell
        header={{ height: 56 }}
        navbar={{ width: folded ? NAV_WIDTH.folded : NAV_WIDTH.open, breakpoint: 0 }}
        footer={{ height: 32 }}
        padding="md"
      >
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <NavToggle folded={folded} onToggle={toggleNav} />
              <Title order={4}>{title}</Title>
              {workspace && <Text c="dimmed">· {workspace.name}</Text>}
            </Group>
            <Group gap="md" wrap="nowrap">
              <ConnectionStatus />
              <UserMenu />
            </Group>
          </Group>
        </AppShell.Header>
        <AppShell.Navbar>
          <NavBar items={items} label={t('Supervisor panel')} folded={folded} />
        </AppShell.Navbar>
        <AppShell.Main>
          <Outlet />
        </AppShell.Main>
        <AppShell.Footer px="md">
          <Text size="xs" c="dimmed" lh="32px" data-testid="admin-footer">
            {tenant.data.name} &gt; {workspace?.name ?? me.workspace.name}
          </Text>
        </AppShell.Footer>
      </AppShell>
    </RequireRole>
  );
}
