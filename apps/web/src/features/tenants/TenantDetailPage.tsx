import { FEATURE_FLAGS, type FeatureFlag, type Tenant } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { Alert, Anchor, Button, Group, NumberInput, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api, apiHandling } from '../../api/client';
import { errorText } from '../../api/errors';
import { serverFieldErrors } from '../settings/formErrors';
import { queryKeys, useMe } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { FEATURE_LABELS } from './featureLabels';

/** Refusals the profile form shows itself (bad country code, plan locked). */
const answered = apiHandling(400, 403);

/**
 * Tenant detail: its profile (name, default country code, agent slots) and one switch per feature flag,
 * saved with POST /tenants/{id}/configure. The platform's tenant_admin changes everything; a customer's
 * own admin changes the name and country code, and sees the plan (slots, features) read-only.
 */
export function TenantDetailPage() {
  const { t } = useTranslation();
  const me = useMe().data;
  const { uuid = '' } = useParams();
  const queryClient = useQueryClient();
  const tenant = useQuery({
    queryKey: queryKeys.tenantDetail(uuid),
    queryFn: async () => (await api.getTenant({ params: { id: uuid } })).data,
  });
  const toggle = useMutation({
    mutationFn: async ({ flag, on }: { flag: FeatureFlag; on: boolean }) =>
      (await api.configureTenant({ params: { id: uuid }, body: { features: { [flag]: on } } })).data,
    onSuccess: async (updated: Tenant) => {
      queryClient.setQueryData(queryKeys.tenantDetail(uuid), updated);
      // The signed-in user's own tenant may be this one: its guards and navigation follow.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tenant }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tenants, exact: true }),
      ]);
      toastSuccess(t('Feature updated'));
    },
  });

  if (tenant.isPending) return <LoadingState />;
  if (tenant.isError) return <ErrorState onRetry={() => void tenant.refetch()} />;
  const pendingFlag = toggle.isPending ? toggle.variables.flag : null;
  // A customer's admin sees their plan; only the platform's tenant_admin changes it.
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
      <TenantProfileForm
        key={`${tenant.data.name}|${tenant.data.config.default_country_code}|${tenant.data.config.agent.max_slots}`}
        tenant={tenant.data}
        platform={platform}
      />
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

/** Name, default country code and (platform only) agent slots; saved together, only what changed is sent. */
function TenantProfileForm({ tenant, platform }: { tenant: Tenant; platform: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const initial = {
    name: tenant.name,
    country: tenant.config.default_country_code,
    slots: tenant.config.agent.max_slots as number | string,
  };
  const [form, setForm] = useState(initial);
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const changed = form.name.trim() !== initial.name || form.country.trim() !== initial.country || Number(form.slots) !== initial.slots;
  const save = useMutation({
    mutationFn: async () =>
      (
        await answered.configureTenant({
          params: { id: tenant.uuid },
          body: {
            ...(form.name.trim() !== initial.name ? { name: form.name.trim() } : {}),
            ...(form.country.trim() !== initial.country ? { default_country_code: form.country.trim() } : {}),
            ...(platform && Number(form.slots) !== initial.slots ? { agent: { max_slots: Number(form.slots) } } : {}),
          },
        })
      ).data,
    onSuccess: async (updated: Tenant) => {
      queryClient.setQueryData(queryKeys.tenantDetail(tenant.uuid), updated);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.tenant }),
        queryClient.invalidateQueries({ queryKey: queryKeys.tenants, exact: true }),
      ]);
      toastSuccess(t('Tenant saved'));
    },
  });
  const server = serverFieldErrors(save.error, t);
  const err = server.on;
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label={t('Tenant profile')}
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Title order={5} mb="sm">
        {t('Profile')}
      </Title>
      <Stack gap="sm">
        <TextInput
          label={t('Name')}
          required
          value={form.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
          error={err('name')}
        />
        <Group grow align="flex-start">
          <TextInput
            label={t('Default country code')}
            value={form.country}
            onChange={(e) => set({ country: e.currentTarget.value })}
            error={err('default_country_code')}
          />
          <NumberInput
            label={t('Agent slots')}
            min={1}
            max={100}
            value={form.slots}
            disabled={!platform}
            onChange={(v) => set({ slots: v })}
            error={err('max_slots')}
          />
        </Group>
        {save.isError && !server.any && (
          <Alert color="red">{save.error instanceof ApiError ? errorText(save.error, t) : t('Something went wrong')}</Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" disabled={!changed} loading={save.isPending}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
