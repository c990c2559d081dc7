import { hasAnyRole, isAgent } from '@atende/core';
import { AppShell, Group, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router';
import { useMe, useTenant } from '../../session/session';
import { LoadingState } from '../../ui/states';
import { ConnectionStatus } from './ConnectionStatus';
import { LoggedTime } from './LoggedTime';
import { NavBar, type NavItem } from './NavBar';
import { UserMenu } from './UserMenu';

/** Agent panel (spec 000 §2): users without the agent role are sent to /admin. */
export function AppLayout() {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant().data;
  if (!me || !tenant) return <LoadingState />;
  const roles = me.roles.map((r) => r.name);
  if (!isAgent(roles)) return <Navigate to="/admin" replace />;
  const features = tenant.config.features;
  const externalUrl = tenant.config.flags.external_system_url;
  const items: NavItem[] = [
    { to: '/app', label: t('Active chats'), end: true },
    { to: '/app/chat-history', label: t('History') },
  ];
  if (hasAnyRole(roles, ['campaign_manager']) && features.outbound_campaign) items.push({ to: '/app/campaigns', label: t('Campaigns') });
  if (typeof externalUrl === 'string' && externalUrl.trim()) {
    const label = tenant.config.flags.external_system_label;
    items.push({ to: '/app/external-system', label: typeof label === 'string' && label ? label : t('External system') });
  }
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 200, breakpoint: 0 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Title order={4}>Atende</Title>
          <Group gap="md">
            <ConnectionStatus />
            <LoggedTime since={me.logged_at} />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <NavBar items={items} label={t('Agent panel')} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
