import type { Contact } from '@atende/contract';
import { formatPhoneForDisplay } from '@atende/core';
import { Button, Group, Modal, Stack, Table, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMessagePlus, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { NewContactForm } from './NewContactForm';
import { useContacts } from './queries';
import { phonebookFilters } from './searchFilters';
import { useLastValidQuery } from './useLastValidQuery';
import { formMessageText } from '../../api/errors';

/** Searches debounced by 500 ms. */
const SEARCH_DEBOUNCE_MS = 500;

interface PhonebookModalProps {
  opened: boolean;
  onClose(): void;
  stackId?: string;
  defaultCallingCode: string;
  /** Whether the tenant has start_new_conversation on. */
  canStart: boolean;
  onStartConversation(contact: Contact): void;
}

/** The agent's phonebook: contacts searched by name and phone, paged, a new-contact form. */
export function PhonebookModal({ opened, onClose, stackId, defaultCallingCode, canStart, onStartConversation }: PhonebookModalProps) {
  const { t } = useTranslation();
  const [view, setView] = useState<'list' | 'new'>('list');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [debouncedName] = useDebouncedValue(name, SEARCH_DEBOUNCE_MS);
  const [debouncedPhone] = useDebouncedValue(phone, SEARCH_DEBOUNCE_MS);
  const filters = phonebookFilters({ name: debouncedName, phone: debouncedPhone });
  const applied = useLastValidQuery(filters);
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  // A new search starts on its first page (reset while rendering, so the old page is never asked).
  const [pagedFor, setPagedFor] = useState(applied);
  if (pagedFor !== applied) {
    setPagedFor(applied);
    setPage(1);
  }
  const contacts = useContacts({ ...applied, limit, offset: (page - 1) * limit }, opened);
  const total = contacts.data?.pagination.total ?? 0;

  const showCreated = (contact: Contact) => {
    setView('list');
    setName('');
    setPhone(contact.phone_number ?? '');
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      stackId={stackId}
      title={t('Phonebook')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      {view === 'new' ? (
        <NewContactForm defaultCallingCode={defaultCallingCode} onCreated={showCreated} onCancel={() => setView('list')} />
      ) : (
        <Stack>
          <Group align="flex-start" wrap="nowrap">
            <TextInput
              flex={1}
              label={t('Name')}
              leftSection={<IconSearch size={14} />}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={filters.errors.name ? formMessageText(filters.errors.name, t) : undefined}
              data-autofocus
            />
            <TextInput
              flex={1}
              label={t('Phone')}
              type="tel"
              leftSection={<IconSearch size={14} />}
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              error={filters.errors.phone ? formMessageText(filters.errors.phone, t) : undefined}
            />
            <Button mt={25} variant="light" leftSection={<IconUserPlus size={16} />} onClick={() => setView('new')}>
              {t('New contact')}
            </Button>
          </Group>
          {contacts.isPending ? (
            <LoadingState />
          ) : contacts.isError ? (
            <ErrorState onRetry={() => void contacts.refetch()} />
          ) : contacts.data.data.length === 0 ? (
            <EmptyState text={t('No data found')} />
          ) : (
            <Table striped aria-label={t('Contacts')} aria-busy={contacts.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Name')}</Table.Th>
                  <Table.Th>{t('Organization')}</Table.Th>
                  <Table.Th>{t('Phone')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {contacts.data.data.map((contact) => (
                  <Table.Tr key={contact.uuid}>
                    <Table.Td>{contact.name}</Table.Td>
                    <Table.Td>{contact.organization?.name ?? '--'}</Table.Td>
                    <Table.Td>{formatPhoneForDisplay(contact.phone_number)}</Table.Td>
                    <Table.Td align="right">
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        leftSection={<IconMessagePlus size={14} />}
                        disabled={!canStart}
                        aria-label={t('Start conversation with {{name}}', { name: contact.name })}
                        title={canStart ? undefined : t('Funcionalidade não ativada')}
                        onClick={() => onStartConversation(contact)}
                      >
                        {t('Start conversation')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {contacts.data && total > 0 && <PagedFooter total={total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />}
        </Stack>
      )}
    </Modal>
  );
}
