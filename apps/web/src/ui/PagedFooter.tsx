import { Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Page sizes 10, 20, 40 (default 10). */
export const PAGE_SIZES = ['10', '20', '40'];

interface PagedFooterProps {
  total: number;
  limit: number;
  page: number;
  onLimit(limit: number): void;
  onPage(page: number): void;
  size?: 'sm' | 'md';
}

/** Rows per page, the total and the pages of a paged table; a new page size goes back to page 1. */
export function PagedFooter({ total, limit, page, onLimit, onPage, size = 'sm' }: PagedFooterProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between">
      <Group gap="xs">
        <Select
          aria-label={t('Rows per page')}
          data={PAGE_SIZES}
          value={String(limit)}
          w={90}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          onChange={(value) => {
            onLimit(Number(value ?? 10));
            onPage(1);
          }}
        />
        <Text size="sm" c="dimmed">
          {t('Total: {{count}}', { count: total })}
        </Text>
      </Group>
      <Pagination total={Math.max(1, Math.ceil(total / limit))} value={page} onChange={onPage} aria-label={t('Pages')} size={size} />
    </Group>
  );
}
