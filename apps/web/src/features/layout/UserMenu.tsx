import type { Conversation } from '@atende/contract';
import { canUseAdminArea, isAgent, roleCovers, ROLE_LABELS } from '@atende/core';
import { Avatar, Badge, Box, Button, Group, Indicator, Menu, Modal, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconHeadset,
  IconLayoutDashboard,
  IconListCheck,
  IconLogout,
  IconQrcode,
  IconUser,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useLogout, useMe, useTenant } from '../../session/session';
import { setSoundEnabled, soundEnabled } from '../workstation/notify';
import { workstationKeys } from '../workstation/queries';
import { initials } from './initials';
import { lazyComponent } from '../../ui/lazyPage';

// Opened now and then: their code (and the QR library) loads when first opened.
const ProfileModal = lazyComponent(() => import('../profile/ProfileModal'), 'ProfileModal');
const QrLoginModal = lazyComponent(() => import('../profile/QrLoginModal'), 'QrLoginModal');

const ICON = { size: 16, stroke: 1.6 } as const;

/** The avatar dropdown. */
export function UserMenu() {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant().data;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const logout = useLogout();
  const [profileOpen, profile] = useDisclosure(false);
  const [qrOpen, qr] = useDisclosure(false);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const [sound, setSound] = useState(soundEnabled);
  const queryClient = useQueryClient();
  if (!me) return null;
  const doLogout = async () => {
    setConfirmLogout(false);
    await logout();
    void navigate('/login', { replace: true });
  };
  // Logging out returns active chats to the queue; the agent is told before.
  const activeChats = queryClient.getQueryData<Conversation[]>(workstationKeys.offered)?.length ?? 0;
  const roles = me.roles.map((r) => r.name);
  const features = tenant?.config.features ?? {};
  // The first-steps dot is for admins, while the feature is on and not completed.
  const firstStepsDot = Boolean(features.first_steps) && roleCovers(roles, 'admin') && tenant?.config.first_steps_completed === false;
  const inAdmin = pathname.startsWith('/admin');

  return (
    <>
      <Menu position="bottom-end" width={280} withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t('User menu')} data-testid="user-menu">
            <Indicator disabled={!firstStepsDot} color="red" size={9} offset={4}>
              <Avatar size={32} color="teal" radius="xl">
                {initials(me.username)}
              </Avatar>
            </Indicator>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text fw={600} c="dark">
              {me.username}
            </Text>
            <Text size="xs">{me.email}</Text>
            <Group gap={4} mt={4}>
              {roles.map((r) => (
                <Badge key={r} size="xs" variant="light">
                  {t(ROLE_LABELS[r] ?? r)}
                </Badge>
              ))}
            </Group>
          </Menu.Label>
          <Menu.Divider />
          {inAdmin && isAgent(roles) && (
            <Menu.Item leftSection={<IconHeadset {...ICON} />} onClick={() => void navigate('/app')}>
              {t('Agent panel')}
            </Menu.Item>
          )}
          {!inAdmin && canUseAdminArea(roles) && (
            <Menu.Item leftSection={<IconLayoutDashboard {...ICON} />} onClick={() => void navigate('/admin')}>
              {t('Supervisor panel')}
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconUser {...ICON} />} onClick={profile.open}>
            {t('Profile')}
          </Menu.Item>
          {features.qr_code_login && (
            <Menu.Item leftSection={<IconQrcode {...ICON} />} onClick={qr.open}>
              {t('Login via app')}
            </Menu.Item>
          )}
          {/* First steps live in the admin area: not for pure agents. */}
          {features.first_steps && canUseAdminArea(roles) && (
            <Menu.Item
              leftSection={<IconListCheck {...ICON} />}
              onClick={() => void navigate('/admin/first-steps')}
              rightSection={
                firstStepsDot ? (
                  <Box w={8} h={8} bg="red" style={{ borderRadius: '50%' }} role="img" aria-label={t('Not completed')} />
                ) : null
              }
            >
              {t('First steps')}
            </Menu.Item>
          )}
          {isAgent(roles) && (
            <Menu.Item
              role="menuitemcheckbox"
              aria-checked={sound}
              closeMenuOnClick={false}
              leftSection={sound ? <IconVolume {...ICON} /> : <IconVolumeOff {...ICON} />}
              onClick={() => {
                setSoundEnabled(!sound);
                setSound(!sound);
              }}
            >
              {sound ? t('Sound notifications: on') : t('Sound notifications: off')}
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item
            color="red"
            leftSection={<IconLogout {...ICON} />}
            onClick={() => (activeChats > 0 ? setConfirmLogout(true) : void doLogout())}
          >
            {t('Logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={confirmLogout} onClose={() => setConfirmLogout(false)} title={t('Logout')} size={464}>
        <Text size="sm">{t('You have {{count}} active chats. Logging out returns them to the queue.', { count: activeChats })}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirmLogout(false)}>
            {t('Cancel')}
          </Button>
          <Button color="red" onClick={() => void doLogout()}>
            {t('Logout')}
          </Button>
        </Group>
      </Modal>
      {profileOpen && <ProfileModal me={me} opened={profileOpen} onClose={profile.close} />}
      {qrOpen && <QrLoginModal opened={qrOpen} onClose={qr.close} />}
    </>
  );
}
