import { canUseAdminArea, isAgent, roleCovers, ROLE_LABELS } from '@atende/core';
import { Avatar, Badge, Group, Indicator, Menu, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useLogout, useMe, useTenant } from '../../session/session';
import { ProfileModal } from '../profile/ProfileModal';
import { QrLoginModal } from '../profile/QrLoginModal';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');

/** The avatar dropdown of spec 000 §2 / 002 §2. */
export function UserMenu() {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant().data;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const logout = useLogout();
  const [profileOpen, profile] = useDisclosure(false);
  const [qrOpen, qr] = useDisclosure(false);
  if (!me) return null;
  const roles = me.roles.map((r) => r.name);
  const features = tenant?.config.features ?? {};
  const firstStepsDot = roleCovers(roles, 'admin') && tenant?.config.first_steps_completed === false;
  const inAdmin = pathname.startsWith('/admin');

  return (
    <>
      <Menu position="bottom-end" width={260} withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={t('Profile')} data-testid="user-menu">
            <Indicator disabled={!(features.first_steps && firstStepsDot)} color="red" size={9} offset={4}>
              <Avatar size={32} color="blue" radius="xl">
                {initials(me.username)}
              </Avatar>
            </Indicator>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text fw={600} c="dark">{me.username}</Text>
            <Text size="xs">{me.email}</Text>
            <Group gap={4} mt={4}>
              {roles.map((r) => (
                <Badge key={r} size="xs" variant="light">
                  {ROLE_LABELS[r] ?? r}
                </Badge>
              ))}
            </Group>
          </Menu.Label>
          <Menu.Divider />
          {inAdmin && isAgent(roles) && <Menu.Item onClick={() => void navigate('/app')}>{t('Agent panel')}</Menu.Item>}
          {!inAdmin && canUseAdminArea(roles) && <Menu.Item onClick={() => void navigate('/admin')}>{t('Supervisor panel')}</Menu.Item>}
          <Menu.Item onClick={profile.open}>{t('Profile')}</Menu.Item>
          {features.qr_code_login && <Menu.Item onClick={qr.open}>{t('Login via app')}</Menu.Item>}
          {features.first_steps && (
            <Menu.Item onClick={() => void navigate('/admin/first-steps')} rightSection={firstStepsDot ? <Badge size="xs" color="red" circle> </Badge> : null}>
              {t('First steps')}
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item
            color="red"
            onClick={async () => {
              await logout();
              void navigate('/login', { replace: true });
            }}
          >
            {t('Logout')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ProfileModal me={me} opened={profileOpen} onClose={profile.close} />
      <QrLoginModal opened={qrOpen} onClose={qr.close} />
    </>
  );
}
