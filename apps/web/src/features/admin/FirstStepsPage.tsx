import { roleCovers } from '@atende/core';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { queryKeys, useMe, useTenant } from '../../session/session';
import { LoadingState } from '../../ui/states';

/** First steps (flag first_steps): admins mark it completed, which clears the red dot. */
export function FirstStepsPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant().data;
  const queryClient = useQueryClient();
  const complete = useMutation({
    mutationFn: () => api.configureTenant({ params: { id: tenant?.uuid ?? '' }, body: { first_steps_completed: true } }),
    onSuccess: (res) => queryClient.setQueryData(queryKeys.tenant, res.data),
  });
  if (!me || !tenant) return <LoadingState />;
  const isAdmin = roleCovers(me.roles.map((r) => r.name), 'admin');
  return (
    <Stack maw={640}>
      <Title order={3}>{t('First steps')}</Title>
      <Text>{t('Welcome to Atende! Set up sectors, pauses, channels and your team, then mark this as completed.')}</Text>
      {tenant.config.first_steps_completed ? (
        <Alert color="green">{t('First steps completed')}</Alert>
      ) : (
        isAdmin && (
          <Button w="fit-content" loading={complete.isPending} onClick={() => complete.mutate()}>
            {t('Mark as completed')}
          </Button>
        )
      )}
    </Stack>
  );
}
