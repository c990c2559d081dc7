import { Button, Center, Stack, Title } from '@mantine/core';
import { IconArrowLeft, IconMessageOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** A conversation URL that is unknown, foreign or not allowed. */
export function InvalidConversation() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Center h="80vh">
      <Stack align="center">
        <IconMessageOff size={48} stroke={1.4} aria-hidden />
        <Title order={3}>{t('This conversation is invalid or has ended')}</Title>
        <Button variant="light" leftSection={<IconArrowLeft size={16} />} onClick={() => void navigate('/')}>
          {t('Back')}
        </Button>
      </Stack>
    </Center>
  );
}
