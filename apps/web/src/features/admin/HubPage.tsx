import type { FeatureFlag, Role } from '@atende/contract';
import { hasAnyRole, mayUse, type PermissionName } from '@atende/core';
import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe, useTenant } from '../../session/session';
import { EmptyState, LoadingState } from '../../ui/states';

export interface HubLink {
  path: string;
  title: string;
  roles?: readonly Role[];
  /** A row of the role matrix (its roles and flag), as the route's guard. */
  permission?: PermissionName;
  flags?: readonly FeatureFlag[];
}

/** The index of a section (reports, settings): cards to the children this user may open. */
export function HubPage({ title, links }: { title: string; links: readonly HubLink[] }) {
  const { t } = useTranslation();
  const me = useMe().data;
  const tenant = useTenant().data;
  if (!me || !tenant) return <LoadingState />;
  const roles = me.roles.map((r) => r.name);
  const visible = links.filter(
    (link) =>
      (!link.roles || hasAnyRole(roles, link.roles)) &&
      (!link.permission || mayUse(roles, tenant.config.features, link.permission)) &&
      (link.flags ?? []).every((flag) => tenant.config.features[flag] === true),
  );
  return (
    <Stack>
      <Title order={3}>{t(title)}</Title>
      {visible.length === 0 ? (
        <EmptyState text={t('No data found')} />
      ) : (
        <SimpleGrid cols={{ base: 2, md: 3 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {visible.map((link) => (
            <Card key={link.path} component="li" withBorder padding="md">
              <Text component={Link} to={link.path} fw={600} c="teal.8">
                {t(link.title)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
