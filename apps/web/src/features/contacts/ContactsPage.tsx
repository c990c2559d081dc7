import type { Contact } from '@atende/contract';
import { allows, countryForCallingCode } from '@atende/core';
import { Group, Modal, Stack, Table, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useMe, useTenant } from '../../session/session';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { PagedFooter } from '../../ui/PagedFooter';
import { RowActions } from '../../ui/RowActions';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { ContactForm } from '../customer/ContactForm';
import { phonebookFilters } from '../phonebook/searchFilters';
import { useLastValidQuery } from '../phonebook/useLastValidQuery';
import { formMessageText } from '../../api/errors';

const contactKeys = { all: ['contacts', 'list'] as const };
const noEditor = () => undefined;
/** Searches are debounced by 500 ms. */
const SEARCH_DEBOUNCE_MS = 500;

/**
 * The contacts page (/admin/contacts): search by name or phone (3+ characters),
 * pages of 10/20/40, edit with the customer details form of the agent panel (same rules),
 * delete with confirmation (supervisor and above; refused while the contact has an open conversation).
 */
export function ContactsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const tenant = useTenant().data;
  const me = useMe().data;
  const country = countryForCallingCode(tenant?.config.default_country_code);
  const [search, setSearch] = useState({ name: '', phone: '' });
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const filters = phonebookFilters(debounced);
  // While a field is too short the last valid search stays on screen (as in the phonebook).
  const query = useLastValidQuery(filters);
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Contact | null>(null);
  const [deleting, setDeleting] = useState<Contact | null>(null);

  const contacts = useQuery({
    queryKey: [...contactKeys.all, query, limit, page],
    queryFn: async () => api.listContacts({ query: { ...query, _limit: limit, _offset: (page - 1) * limit } }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: contactKeys.all });
  const remove = useMutation({
    mutationFn: (contact: Contact) => api.deleteContact({ params: { id: contact.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Contact deleted successfully'));
      setDeleting(null);
      refresh();
    },
  });
  const canDelete = me
    ? allows(
        me.roles.map((r) => r.name),
        'contacts.delete',
      )
    : false;
  const type = (field: 'name' | 'phone', value: string) => {
    setSearch((s) => ({ ...s, [field]: value }));
    setPage(1);
  };
  const fieldError = (message?: string) => (message ? formMessageText(message, t) : undefined);

  let body;
  if (contacts.isPending) body = <LoadingState />;
  else if (contacts.isError) body = <ErrorState onRetry={() => void contacts.refetch()} />;
  else if (contacts.data.data.length === 0) body = <EmptyState text={t('No contacts found')} />;
  else
    body = (
      <Table striped aria-label={t('Contacts')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Name')}</Table.Th>
            <Table.Th>{t('Phone')}</Table.Th>
            <Table.Th>{t('Organization')}</Table.Th>
            <Table.Th>{t('Email')}</Table.Th>
            <Table.Th>{t('Actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {contacts.data.data.map((c) => (
            <Table.Tr key={c.uuid}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{c.phone1 ?? c.phone_number ?? '--'}</Table.Td>
              <Table.Td>{c.organization?.name ?? ''}</Table.Td>
              <Table.Td>{c.email ?? ''}</Table.Td>
              <Table.Td>
                <RowActions name={c.name} onEdit={() => setEditing(c)} onDelete={canDelete ? () => setDeleting(c) : undefined} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <Stack>
      <Title order={3}>{t('Contacts')}</Title>
      <Group align="flex-start">
        <TextInput
          label={t('Name')}
          placeholder={t('Search by name')}
          value={search.name}
          onChange={(e) => type('name', e.currentTarget.value)}
          error={fieldError(filters.errors.name)}
        />
        <TextInput
          label={t('Phone')}
          placeholder={t('Search by phone')}
          value={search.phone}
          onChange={(e) => type('phone', e.currentTarget.value)}
          error={fieldError(filters.errors.phone)}
        />
      </Group>
      {body}
      {contacts.data && contacts.data.pagination.total > 0 && (
        <PagedFooter total={contacts.data.pagination.total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="md"
        title={t('Edit contact')}
        closeButtonProps={{ 'aria-label': t('Close') }}
      >
        {editing && (
          <ContactForm
            key={editing.uuid}
            contact={editing}
            country={country}
            onEditor={noEditor}
            onDone={() => {
              setEditing(null);
              refresh();
            }}
          />
        )}
      </Modal>
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete contact')}
        message={t('Are you sure? This cannot be undone.')}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
}
