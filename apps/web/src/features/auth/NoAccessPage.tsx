import { Button, Center, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NO_PERMISSION } from '../../api/errors';
import { useLogout } from '../../session/session';

/** For a signed-in user whose roles open no page: say so and offer to sign out. */
export function NoAccessPage() {
  const { t } = useTranslation();
  const logout = useLogout();
  const navigate = useNavigate();
  return (
    <Center mih="60vh">
      <Stack align="center">
        <Text>{t(NO_PERMISSION)}</Text>
        <Button
          variant="light"
          onClick={async () => {
            await logout();
            void navigate('/login', { replace: true });
          }}
        >
          {t('Logout')}
        </Button>
      </Stack>
    </Center>
  );
}
