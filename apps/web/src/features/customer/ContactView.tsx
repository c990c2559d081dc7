import type { Contact } from '@atende/contract';
import { CONTACT_FIELDS, formatPhoneForDisplay } from '@atende/core';
import { Box, Button, Collapse, Stack, Text } from '@mantine/core';
import { useDisclosure, useId } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { contactValue } from './bindTargets';
import { CONTACT_FIELD_LABELS } from './fieldLabels';

interface Row {
  label: string;
  value: string | null;
}

/** Read view of the customer details: primary fields, the rest behind 'Show N more fields'. */
export function ContactView({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  const [more, { toggle }] = useDisclosure(false);
  const moreId = useId();
  const fixed = (primary: boolean): Row[] =>
    CONTACT_FIELDS.filter((f) => f.primary === primary).map((f) => {
      const value = contactValue(contact, { type: 'contact', key: f.key });
      return { label: t(CONTACT_FIELD_LABELS[f.key]), value: f.kind === 'telephone' && value ? formatPhoneForDisplay(value) : value };
    });
  const dynamic = (map: Record<string, string>, labels: Record<string, string> = {}): Row[] =>
    Object.entries(map).map(([key, value]) => ({ label: labels[key] ?? key, value }));
  const others = [...fixed(false), ...dynamic(contact.fields), ...dynamic(contact.livechat_custom_fields, contact.livechat_field_labels)];

  return (
    <Stack gap="xs">
      <FieldList rows={fixed(true)} />
      <Box>
        <Button variant="subtle" size="compact-sm" px={4} onClick={toggle} aria-expanded={more} aria-controls={moreId}>
          {more ? t('Show fewer fields') : t('Show {{count}} more fields', { count: others.length })}
        </Button>
        <Collapse in={more} id={moreId} mt="xs">
          <FieldList rows={others} />
        </Collapse>
      </Box>
    </Stack>
  );
}

function FieldList({ rows }: { rows: Row[] }) {
  return (
    <Stack component="dl" gap={6} m={0}>
      {rows.map((row, i) => (
        <div key={`${i}:${row.label}`}>
          <Text component="dt" size="xs" c="dimmed">
            {row.label}
          </Text>
          <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {row.value || '--'}
          </Text>
        </div>
      ))}
    </Stack>
  );
}
