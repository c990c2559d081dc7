import { roleCovers } from '@atende/core';
import { Alert, Button, List, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { queryKeys, useMe, useTenant } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { FIRST_STEPS_SHOWN } from './firstSteps';

/** First steps (flag first_steps): admins mark it completed (tenant config first_steps_completed), which clears the red dot. */
export function FirstStepsPage() {
  const { t } = useTranslation();
  useEffect(() => sessionStorage.setItem(FIRST_STEPS_SHOWN, '1'), []);
  const me = useMe().data;
  const tenant = useTenant();
  const queryClient = useQueryClient();
  const complete = useMutation({
    mutationFn: async (tenantUuid: string) =>
      (await api.configureTenant({ params: { id: tenantUuid }, body: { first_steps_completed: true } })).data,
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.tenant, updated);
      toastSuccess(t('First steps completed'));
    },
  });
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  if (!me || !tenant.data) return <LoadingState />;
  const isAdmin = roleCovers(
    me.roles.map((r) => r.name),
    'admin',
  );
  const done = tenant.data.config.first_steps_completed;
  return (
    <Stack maw={640}>
      <Title order={3}>{t('First steps')}</Title>
      <Text>{t('Welcome to Atende! Set up sectors, pauses, channels and your team, then mark this as completed.')}</Text>
      <List>
        <List.Item>{t('Create the sectors (queues) of your team')}</List.Item>
        <List.Item>{t('Register the pauses your agents may take')}</List.Item>
        <List.Item>{t('Connect your channels')}</List.Item>
        <List.Item>{t('Invite your agents and supervisors')}</List.Item>
      </List>
      {done ? (
        <Alert color="green" role="status">
          {t('First steps completed')}
        </Alert>
      ) : (
        isAdmin && (
          <Button w="fit-content" loading={complete.isPending} onClick={() => complete.mutate(tenant.data.uuid)}>
            {t('Mark as completed')}
          </Button>
        )
      )}
    </Stack>
  );
}
