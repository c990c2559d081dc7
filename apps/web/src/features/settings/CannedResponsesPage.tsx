import { type CannedResponse } from '@atende/contract';
import { Badge, Group, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { PagedFooter } from '../../ui/PagedFooter';
import { CannedCategoriesPanel } from './CannedCategoriesPanel';
import { CannedResponseModal } from './CannedResponseModal';
import { settingsKeys } from './queries';
import { SettingsHeader, SettingsTable } from './SettingsTable';

/** Canned responses and their categories (flag canned_responses). */
export function CannedResponsesPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('responses');
  const [editing, setEditing] = useState<CannedResponse | 'new' | null>(null);
  const [creatingCategory, setCreatingCategory] = useState(false);
  return (
    <Stack>
      <SettingsHeader
        title={t('Canned responses')}
        addLabel={tab === 'responses' ? t('New canned response') : t('New category')}
        onAdd={() => (tab === 'responses' ? setEditing('new') : setCreatingCategory(true))}
      />
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List>
          <Tabs.Tab value="responses">{t('Responses')}</Tabs.Tab>
          <Tabs.Tab value="categories">{t('Categories')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="responses" pt="md">
          <ResponsesPanel onEdit={setEditing} />
        </Tabs.Panel>
        <Tabs.Panel value="categories" pt="md">
          <CannedCategoriesPanel creating={creatingCategory} onCreated={() => setCreatingCategory(false)} />
        </Tabs.Panel>
      </Tabs>
      {editing && <CannedResponseModal canned={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}

function ResponsesPanel({ onEdit }: { onEdit(canned: CannedResponse): void }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  const query = { _limit: limit, _offset: (page - 1) * limit, ...(keyword.trim() ? { keyword__contains: keyword.trim() } : {}) };
  const canned = useQuery({
    queryKey: [...settingsKeys.canned, query],
    queryFn: () => api.listCannedResponses({ query }),
    placeholderData: keepPreviousData,
  });
  const sectors = useQuery({ queryKey: settingsKeys.sectors, queryFn: async () => (await api.listSectors({ query: { _limit: 0 } })).data });
  const sectorName = (uuid: string) => sectors.data?.find((s) => s.uuid === uuid)?.name;
  return (
    <Stack>
      <TextInput
        aria-label={t('Search by keyword')}
        placeholder={t('Search by keyword')}
        leftSection={<IconSearch size={16} />}
        value={keyword}
        onChange={(e) => {
          setKeyword(e.currentTarget.value);
          setPage(1);
        }}
        maw={320}
      />
      <SettingsTable
        label={t('Canned responses')}
        rows={{ ...canned, data: canned.data?.data }}
        columns={[
          { header: t('Keyword'), cell: (c) => <Text ff="monospace">/{c.keyword}</Text> },
          {
            header: t('Message'),
            cell: (c) => (
              <Text size="sm" lineClamp={2} maw={420}>
                {c.message}
              </Text>
            ),
          },
          { header: t('Category'), cell: (c) => c.category?.name ?? '—' },
          {
            header: t('Sectors'),
            cell: (c) =>
              c.sector_uuids.length === 0 ? (
                t('All sectors')
              ) : (
                <Group gap={4}>
                  {c.sector_uuids.map((s) => (
                    <Badge key={s} variant="light" size="sm">
                      {sectorName(s) ?? t('Deleted sector')}
                    </Badge>
                  ))}
                </Group>
              ),
          },
          { header: t('File'), cell: (c) => c.annex?.original_filename ?? '—' },
        ]}
        emptyText={t('There are no canned responses.')}
        nameOf={(c) => c.keyword}
        onEdit={onEdit}
        remove={{
          call: (c) => api.deleteCannedResponse({ params: { id: c.uuid } }),
          invalidates: settingsKeys.canned,
          successText: t('Canned response successfully deleted'),
          confirmTitle: t('Delete canned response'),
        }}
      />
      {canned.data && canned.data.pagination.total > 0 && (
        <PagedFooter total={canned.data.pagination.total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />
      )}
    </Stack>
  );
}
