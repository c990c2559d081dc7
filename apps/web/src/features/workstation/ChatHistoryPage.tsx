import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../ui/states';

/** Day chat history (spec 000 §2): today's finished chats of the agent. */
export function ChatHistoryPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={3}>{t('Chat history')}</Title>
      <EmptyState text={t("You don't have finished chats yet")} />
    </Stack>
  );
}
