import { hasAnyRole, isAgent } from '@atende/core';
import { AppShell, Badge, Group, Indicator, Title } from '@mantine/core';
import { IconExternalLink, IconHistory, IconMessageCircle, IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet } from 'react-router';
import { useMe, useTenant } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { useActiveChats } from '../workstation/activeChats';
import { externalSystem } from '../workstation/externalSystem';
import { ConnectionStatus } from './ConnectionStatus';
import { LoggedTime } from './LoggedTime';
import { NavBar, type NavItem } from './NavBar';
import { UserMenu } from './UserMenu';

const ICON = { size: 20, stroke: 1.6 } as const;

/** Agent panel (spec 000 §2): users without the agent role are sent to /admin. */
export function AppLayout() {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant();
  const activeChats = useActiveChats().length;
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!me || !tenant.data) return <LoadingState />;
  const roles = me.roles.map((r) => r.name);
  if (!isAgent(roles)) return <Navigate to="/admin" replace />;
  const features = tenant.data.config.features;
  const external = externalSystem(tenant.data.config.flags);
  const items: NavItem[] = [
    {
      to: '/app',
      label: t('Active chats'),
      end: true,
      icon: (
        <Indicator disabled={activeChats === 0} color="red" size={8} aria-hidden>
          <IconMessageCircle {...ICON} />
        </Indicator>
      ),
      badge: (
        <Badge size="sm" variant="light" aria-label={t('{{count}} active chats', { count: activeChats })}>
          {activeChats}
        </Badge>
      ),
    },
    { to: '/app/chat-history', label: t('History'), icon: <IconHistory {...ICON} /> },
  ];
  if (hasAnyRole(roles, ['campaign_manager']) && features.outbound_campaign) items.push({ to: '/app/campaigns', label: t('Campaigns'), icon: <IconSpeakerphone {...ICON} /> });
  if (external) items.push({ to: '/app/external-system', label: external.label ?? t('External system'), icon: <IconExternalLink {...ICON} /> });

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 0 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Title order={4}>{t('Atende')}</Title>
          <Group gap="md" wrap="nowrap">
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
