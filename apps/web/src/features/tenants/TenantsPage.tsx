import { FEATURE_FLAGS } from '@atende/contract';
import { Anchor, Button, Group, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { queryKeys, useMe } from '../../session/session';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { NewTenantModal } from './NewTenantModal';

/** Tenant list (role tenant_admin). */
export function TenantsPage() {
  const { t } = useTranslation();
  const tenants = useQuery({ queryKey: queryKeys.tenants, queryFn: async () => (await api.listTenants()).data });
  // Only the platform's tenant_admin creates customers.
  const platform = (useMe().data?.roles ?? []).some((r) => r.name === 'tenant_admin');
  const [creating, setCreating] = useState(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t('Tenants')}</Title>
        {platform && <Button onClick={() => setCreating(true)}>{t('New tenant')}</Button>}
      </Group>
      {creating && <NewTenantModal onClose={() => setCreating(false)} />}
      {tenants.isPending ? (
        <LoadingState />
      ) : tenants.isError ? (
        <ErrorState onRetry={() => void tenants.refetch()} />
      ) : tenants.data.length === 0 ? (
        <EmptyState text={t('No data found')} />
      ) : (
        <Table striped highlightOnHover aria-label={t('Tenants')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Features on')}</Table.Th>
              <Table.Th>{t('Default country code')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tenants.data.map((tenant) => (
              <Table.Tr key={tenant.uuid}>
                <Table.Td>
                  <Anchor component={Link} to={tenant.uuid}>
                    {tenant.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {FEATURE_FLAGS.filter((flag) => tenant.config.features[flag] === true).length} / {FEATURE_FLAGS.length}
                </Table.Td>
                <Table.Td>{tenant.config.default_country_code}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
