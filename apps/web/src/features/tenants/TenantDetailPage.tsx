import { FEATURE_FLAGS, type FeatureFlag, type Tenant } from '@atende/contract';
import { Anchor, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys, useMe } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { FEATURE_LABELS } from './featureLabels';

/** Tenant detail (role tenant_admin): one switch per feature flag, saved with POST /tenants/{id}/configure. */
export function TenantDetailPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  const { uuid = '' } = useParams();
  const queryClient = useQueryClient();
  const tenant = useQuery({ queryKey: queryKeys.tenantDetail(uuid), queryFn: async () => (await api.getTenant({ params: { id: uuid } })).data });
  const toggle = useMutation({
    mutationFn: async ({ flag, on }: { flag: FeatureFlag; on: boolean }) =>
      (await api.configureTenant({ params: { id: uuid }, body: { features: { [flag]: on } } })).data,
    onSuccess: async (updated: Tenant) => {
      queryClient.setQueryData(queryKeys.tenantDetail(uuid), updated);
      // The signed-in user's own tenant may be this one: its guards and navigation follow.
      await Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.tenant }), queryClient.invalidateQueries({ queryKey: queryKeys.tenants, exact: true })]);
      toastSuccess(t('Feature updated'));
    },
  });

  if (tenant.isPending) return <LoadingState />;
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  const pendingFlag = toggle.isPending ? toggle.variables.flag : null;
  // Issue 16 item 16: a customer's admin sees their plan; only the platform's tenant_admin changes it.
  const platform = (me?.roles ?? []).some((r) => r.name === 'tenant_admin');
  return (
    <Stack maw={720}>
      <Group>
        <Anchor component={Link} to="/admin/tenants">
          {t('Back')}
        </Anchor>
      </Group>
      <div>
        <Title order={3}>{tenant.data.name}</Title>
        <Text size="sm" c="dimmed">
          {tenant.data.uuid}
        </Text>
      </div>
      <Paper withBorder p="md">
        <Title order={5} mb="sm">
          {t('Features')}
        </Title>
        {!platform && (
          <Text size="sm" c="dimmed" mb="sm">
            {t("The plan's features and agent slots are changed by the platform's administrators")}
          </Text>
        )}
        <Stack gap="sm" role="group" aria-label={t('Features')}>
          {FEATURE_FLAGS.map((flag) => (
            <Switch
              key={flag}
              label={t(FEATURE_LABELS[flag])}
              description={flag}
              checked={tenant.data.config.features[flag] === true}
              disabled={!platform || pendingFlag === flag}
              onChange={(e) => toggle.mutate({ flag, on: e.currentTarget.checked })}
            />
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
