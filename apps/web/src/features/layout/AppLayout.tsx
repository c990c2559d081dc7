import type { Tenant, User } from '@atende/contract';
import { isAgent, mayUse } from '@atende/core';
import { AppShell, Badge, Group, Indicator, Title } from '@mantine/core';
import { IconExternalLink, IconHistory, IconMessageCircle, IconSpeakerphone } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useMe, useTenant } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { PauseControl } from '../pauses/PauseControl';
import { VoicePhoneButton } from '../integrations/VoicePhoneButton';
import { PhonebookButton } from '../phonebook/PhonebookButton';
import { externalSystem } from '../workstation/externalSystem';
import { useActiveChats, useWaitingQueue, useWorkstationLiveUpdates } from '../workstation/queries';
import { ConnectionStatus } from './ConnectionStatus';
import { LoggedTime } from './LoggedTime';
import { NAV_WIDTH, NavBar, NavToggle, useNavFolded, type NavItem } from './NavBar';
import { UserMenu } from './UserMenu';
import { badgeCount } from '../../ui/badgeCount';

const ICON = { size: 20, stroke: 1.6 } as const;

/**
 * Where a user without the agent role goes instead of `path`: the same campaign page in the admin
 * area (the campaign routes exist in both: a shared /app/campaigns link landed on
 * the admin list), else the admin home.
 */
export function adminPathFor(path: string, search = ''): string {
  return /^\/app\/campaigns(\/|$)/.test(path) ? `${path.replace(/^\/app/, '/admin')}${search}` : '/admin';
}

/** Agent panel: users without the agent role are sent to /admin. */
export function AppLayout() {
  const location = useLocation();
  const me = useMe().data;
  const tenant = useTenant();
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!me || !tenant.data) return <LoadingState />;
  if (!isAgent(me.roles.map((r) => r.name))) return <Navigate to={adminPathFor(location.pathname, location.search)} replace />;
  return <AgentShell me={me} tenant={tenant.data} />;
}

/** Header (connection, pause, time logged in, user menu), left navigation and the page. */
function AgentShell({ me, tenant }: { me: User; tenant: Tenant }) {
  const { t } = useTranslation();
  const [folded, toggleNav] = useNavFolded();
  useWorkstationLiveUpdates();
  const activeChats = useActiveChats().data?.length ?? 0;
  const waiting = useWaitingQueue().data ?? 0;
  useWaitingCountInTitle(waiting, t('Atende'));
  const roles = me.roles.map((r) => r.name);
  const features = tenant.config.features;
  const external = externalSystem(tenant.config.flags);
  const items: NavItem[] = [
    {
      to: '/app',
      label: t('Active chats'),
      end: true,
      // With the amount, and a red dot when active chats exist.
      icon: (
        <Indicator disabled={activeChats === 0} color="red" size={8}>
          <IconMessageCircle {...ICON} />
        </Indicator>
      ),
      badge: (
        <Badge size="sm" variant="light" aria-label={t('{{count}} active chats', { count: activeChats })}>
          {badgeCount(activeChats)}
        </Badge>
      ),
    },
    { to: '/app/chat-history', label: t('History'), icon: <IconHistory {...ICON} /> },
  ];
  if (mayUse(roles, features, 'campaigns'))
    items.push({ to: '/app/campaigns', label: t('Campaigns'), icon: <IconSpeakerphone {...ICON} /> });
  if (external)
    items.push({ to: '/app/external-system', label: external.label ?? t('External system'), icon: <IconExternalLink {...ICON} /> });

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: folded ? NAV_WIDTH.folded : NAV_WIDTH.open, breakpoint: 0 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <NavToggle folded={folded} onToggle={toggleNav} />
            <Title order={4}>{t('Atende')}</Title>
          </Group>
          <Group gap="md" wrap="nowrap">
            <ConnectionStatus />
            <PauseControl me={me} activeChats={activeChats} />
            <PhonebookButton tenant={tenant} />
            <VoicePhoneButton />
            <LoggedTime since={me.logged_at} />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <NavBar items={items} label={t('Agent panel')} folded={folded} />
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** The browser title shows the waiting count in parentheses while in the agent panel. */
function useWaitingCountInTitle(waiting: number, title: string): void {
  useEffect(() => {
    document.title = waiting > 0 ? `(${waiting}) ${title}` : title;
    return () => {
      document.title = title;
    };
  }, [waiting, title]);
}
