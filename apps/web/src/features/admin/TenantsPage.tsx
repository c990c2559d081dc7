import { FEATURE_FLAGS, type FeatureFlag } from '@atende/contract';
import { Anchor, Badge, Group, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../api/client';
import { queryKeys } from '../../session/session';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';

/** Tenant list (tenant_admin). */
export function TenantsPage() {
  const { t } = useTranslation();
  const tenants = useQuery({ queryKey: queryKeys.tenants, queryFn: async () => (await api.listTenants()).data });
  if (tenants.isPending) return <LoadingState />;
  if (tenants.isError) return <ErrorState onRetry={() => void tenants.refetch()} />;
  return (
    <Stack>
      <Title order={3}>{t('Tenants')}</Title>
      {tenants.data.length === 0 ? (
        <EmptyState text={t('No data found')} />
      ) : (
        <Table aria-label={t('Tenants')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Features')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tenants.data.map((tenant) => (
              <Table.Tr key={tenant.uuid}>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/tenants/${tenant.uuid}`}>
                    {tenant.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{Object.values(tenant.config.features).filter(Boolean).length} / {FEATURE_FLAGS.length}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/** Tenant detail: one switch per feature flag (tenant_admin). */
export function TenantDetailPage() {
  const { t } = useTranslation();
  const { uuid = '' } = useParams();
  const queryClient = useQueryClient();
  const tenant = useQuery({ queryKey: queryKeys.tenantDetail(uuid), queryFn: async () => (await api.getTenant({ params: { id: uuid } })).data });
  const toggle = useMutation({
    mutationFn: ({ flag, on }: { flag: FeatureFlag; on: boolean }) => api.configureTenant({ params: { id: uuid }, body: { features: { [flag]: on } } }),
    onSuccess: async (res) => {
      queryClient.setQueryData(queryKeys.tenantDetail(uuid), res.data);
      await queryClient.invalidateQueries({ queryKey: queryKeys.tenant });
      await queryClient.invalidateQueries({ queryKey: queryKeys.tenants });
      notifications.show({ color: 'green', message: t('Feature updated') });
    },
  });
  if (tenant.isPending) return <LoadingState />;
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  return (
    <Stack maw={640}>
      <Group>
        <Anchor component={Link} to="/admin/tenants">
          {t('Back')}
        </Anchor>
      </Group>
      <Title order={3}>{tenant.data.name}</Title>
      <Text size="sm" c="dimmed">{tenant.data.uuid}</Text>
      <Title order={5}>{t('Features')}</Title>
      <Stack gap="xs">
        {FEATURE_FLAGS.map((flag) => (
          <Switch
            key={flag}
            label={flag}
            checked={tenant.data.config.features[flag] === true}
            disabled={toggle.isPending}
            onChange={(e) => toggle.mutate({ flag, on: e.currentTarget.checked })}
          />
        ))}
      </Stack>
      <Badge variant="light">{tenant.data.config.default_country_code}</Badge>
    </Stack>
  );
}
