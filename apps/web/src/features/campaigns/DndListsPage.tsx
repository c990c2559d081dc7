import type { Contact, DndList } from '@atende/contract';
import { normalizePhone, countryForCallingCode } from '@atende/core';
import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Modal,
  MultiSelect,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconPlus, IconSearch, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '../../api/client';
import { useTenant } from '../../session/session';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { PagedFooter } from '../../ui/PagedFooter';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';
import { campaignKeys } from './queries';

const keys = { lists: ['dnd', 'lists'] as const, members: (id: string) => ['dnd', 'members', id] as const };
const REMOVE_WARNING =
  'The do not disturb lists can be used by several campaigns and this action will influence all of them. Are you sure you want to continue?';

/** The DND lists screen: lists with their sizes, a new list, consult by number, link a contact, members. */
export function DndListsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const lists = useQuery({ queryKey: keys.lists, queryFn: async () => (await api.listDndLists({ query: { _limit: 0 } })).data });
  const [modal, setModal] = useState<'new' | 'consult' | 'link' | { members: DndList } | null>(null);
  const [deleting, setDeleting] = useState<DndList | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['dnd'] });
  const remove = useMutation({
    mutationFn: (list: DndList) => api.deleteDndList({ params: { id: list.uuid } }),
    onSuccess: () => {
      toastSuccess(t('Lista excluída com sucesso'));
      setDeleting(null);
      refresh();
    },
  });
  // A default list is preselected in every new campaign, so an opt-out into it protects them all.
  const markDefault = useMutation({
    mutationFn: ({ list, value }: { list: DndList; value: boolean }) =>
      api.updateDndList({ params: { id: list.uuid }, body: { default: value } }),
    onSuccess: () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: campaignKeys.lookups });
    },
  });
  return (
    <Stack>
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← {t('Campaigns')}
      </Anchor>
      <Group justify="space-between">
        <Title order={3}>{t('Do not disturb lists')}</Title>
        <Group>
          <Button variant="default" leftSection={<IconSearch size={16} />} onClick={() => setModal('consult')}>
            {t('Consult Do Not Disturb Lists')}
          </Button>
          <Button variant="default" leftSection={<IconUserPlus size={16} />} onClick={() => setModal('link')}>
            {t('Add contact to lists')}
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setModal('new')}>
            {t('New list')}
          </Button>
        </Group>
      </Group>
      {lists.isPending ? (
        <LoadingState />
      ) : lists.isError ? (
        <ErrorState onRetry={() => void lists.refetch()} />
      ) : lists.data.length === 0 ? (
        <EmptyState text={t('You have no Do not disturb lists')} />
      ) : (
        <Table striped aria-label={t('Do not disturb lists')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Contacts')}</Table.Th>
              <Table.Th>
                <Tooltip
                  label={t(
                    'Default lists are preselected in every new campaign: a contact who opts out into one is not sent those campaigns.',
                  )}
                  multiline
                  w={300}
                >
                  <span>{t('Default for new campaigns')}</span>
                </Tooltip>
              </Table.Th>
              <Table.Th>{t('Actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lists.data.map((l) => (
              <Table.Tr key={l.uuid}>
                <Table.Td>
                  <Anchor component="button" onClick={() => setModal({ members: l })}>
                    {l.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>{l.contact_count}</Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={t('Default for new campaigns: {{name}}', { name: l.name })}
                    checked={l.default}
                    disabled={markDefault.isPending}
                    onChange={(e) => markDefault.mutate({ list: l, value: e.currentTarget.checked })}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('Delete {{name}}', { name: l.name })}
                    onClick={() => setDeleting(l)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmModal
        opened={deleting !== null}
        title={t('Delete list')}
        message={t(REMOVE_WARNING)}
        confirmLabel={t('Delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      />
      {modal === 'new' && <NewListModal onClose={() => setModal(null)} onDone={refresh} />}
      {modal === 'consult' && <ConsultModal onClose={() => setModal(null)} onChanged={refresh} />}
      {modal === 'link' && <LinkModal lists={lists.data ?? []} onClose={() => setModal(null)} onDone={refresh} />}
      {modal && typeof modal === 'object' && <MembersModal list={modal.members} onClose={() => setModal(null)} onChanged={refresh} />}
    </Stack>
  );
}

function NewListModal({ onClose, onDone }: { onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const create = useMutation({
    mutationFn: () => api.createDndList({ body: { name: name.trim() } }),
    onSuccess: () => {
      toastSuccess(t('Lista criada com sucesso'));
      onDone();
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('New list')} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <TextInput label={t('Name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} data-autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button loading={create.isPending} onClick={() => (name.trim() ? create.mutate() : setError(t('This field is required')))}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Looks a contact up by exact number (GET /api/v1/contacts?number__equals=). */
function useContactByNumber() {
  const [contact, setContact] = useState<Contact | null | undefined>(undefined);
  const find = async (phone: string) =>
    setContact((await api.listContacts({ query: { number__equals: phone, _limit: 1 } })).data[0] ?? null);
  return { contact, setContact, find };
}

function ConsultModal({ onClose, onChanged }: { onClose(): void; onChanged(): void }) {
  const { t } = useTranslation();
  const [phone, setPhone] = useState('');
  const [prompt, setPrompt] = useState(false);
  const { contact, find } = useContactByNumber();
  const [removing, setRemoving] = useState<{ uuid: string; name: string } | null>(null);
  const remove = useMutation({
    mutationFn: (listId: string) => api.removeDndContact({ params: { id: listId, contact: contact!.uuid } }),
    onSuccess: async () => {
      toastSuccess(t('Contato removido da lista com sucesso'));
      setRemoving(null);
      onChanged();
      await find(phone.replace(/[^\d+]/g, ''));
    },
  });
  const search = () => {
    const digits = phone.replace(/[^\d+]/g, '');
    setPrompt(!digits);
    if (digits) void find(digits);
  };
  return (
    <Modal opened onClose={onClose} title={t('Consult Do Not Disturb Lists')} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <Group align="flex-end">
          <TextInput
            flex={1}
            label={t('Phone')}
            placeholder="55 84 98888 9999"
            value={phone}
            onChange={(e) => setPhone(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && search()}
          />
          <Button onClick={search}>{t('Search')}</Button>
        </Group>
        {prompt && <Text c="dimmed">{t('Fill in the phone number to search')}</Text>}
        {contact === null && <Text>{t('Subscriber not found')}</Text>}
        {contact && (
          <Stack gap="xs">
            <Text fw={600}>{contact.name}</Text>
            {contact.dnd_list.length === 0 ? (
              <Text c="dimmed">{t('This subscriber is not in any Dnd lists')}</Text>
            ) : (
              contact.dnd_list.map((l) => (
                <Group key={l.uuid} justify="space-between">
                  <Text>{l.name}</Text>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('Remove from {{name}}', { name: l.name })}
                    onClick={() => setRemoving(l)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))
            )}
          </Stack>
        )}
        {removing && (
          <Stack gap="xs" p="sm" style={{ border: '1px solid var(--mantine-color-orange-4)', borderRadius: 8 }}>
            <Text size="sm">{t(REMOVE_WARNING)}</Text>
            <Group justify="flex-end">
              <Button size="xs" variant="default" onClick={() => setRemoving(null)}>
                {t('Cancel')}
              </Button>
              <Button size="xs" color="red" loading={remove.isPending} onClick={() => remove.mutate(removing.uuid)}>
                {t('Remove')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

function LinkModal({ lists, onClose, onDone }: { lists: DndList[]; onClose(): void; onDone(): void }) {
  const { t } = useTranslation();
  const country = countryForCallingCode(useTenant().data?.config.default_country_code ?? '+55');
  const [phone, setPhone] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [organization, setOrganization] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { contact, setContact, find } = useContactByNumber();
  const save = useMutation({
    mutationFn: async () => {
      let target = contact;
      if (!target) {
        target = (await api.createContact({ body: { name: name.trim(), organization: organization.trim(), phone1: phone } })).data;
        toastSuccess(t('Contato criado com sucesso'));
      }
      return api.addContactToDnd({ params: { id: target.uuid }, body: { dnd_list: chosen } });
    },
    onSuccess: () => {
      toastSuccess(t('Contato adicionado às listas com sucesso'));
      onDone();
      onClose();
    },
  });
  const submit = () => {
    const e: Record<string, string> = {};
    if (!phone.trim()) e.phone = 'Número de telefone é obrigatório';
    else if (!normalizePhone(phone, country)) e.phone = 'Número de telefone inválido';
    if (chosen.length === 0) e.lists = 'Deve ser escolhida pelo menos uma lista';
    if (contact === null && !name.trim()) e.name = 'This field is required';
    if (contact === null && !organization.trim()) e.organization = 'This field is required';
    setErrors(e);
    if (Object.keys(e).length === 0) save.mutate();
  };
  const err = (k: string) => (errors[k] ? t(errors[k]) : undefined);
  return (
    <Modal opened onClose={onClose} title={t('Add contact to lists')} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <TextInput
          label={t('Phone')}
          value={phone}
          error={err('phone')}
          onChange={(e) => {
            setPhone(e.currentTarget.value);
            setContact(undefined);
          }}
          onBlur={() => {
            const n = normalizePhone(phone, country);
            if (n) void find(n);
          }}
        />
        {contact && (
          <Text size="sm">
            {t('Contact')}: <strong>{contact.name}</strong>
          </Text>
        )}
        {contact === null && (
          <>
            <TextInput label={t('Name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={err('name')} />
            <TextInput
              label={t('Organization')}
              value={organization}
              onChange={(e) => setOrganization(e.currentTarget.value)}
              error={err('organization')}
            />
          </>
        )}
        <MultiSelect
          label={t('Lists')}
          searchable
          data={lists.map((l) => ({ value: l.uuid, label: l.name }))}
          value={chosen}
          onChange={setChosen}
          error={err('lists')}
          nothingFoundMessage={lists.length ? t('You have selected all lists') : t('You have no Do not disturb lists')}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button loading={save.isPending} onClick={submit}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A list's contacts, searched and paged; taking one off warns first (the list may serve
 * several campaigns).
 */
function MembersModal({ list, onClose, onChanged }: { list: DndList; onClose(): void; onChanged(): void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [limit, setLimit] = useState(10);
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState<{ uuid: string; name: string } | null>(null);
  const byPhone = /^[+\d\s()-]+$/.test(debounced);
  const members = useQuery({
    queryKey: [...keys.members(list.uuid), debounced, limit, page],
    queryFn: async () =>
      api.listDndContacts({
        params: { id: list.uuid },
        query: {
          _limit: limit,
          _offset: (page - 1) * limit,
          ...(debounced ? (byPhone ? { phone_number: debounced } : { name: debounced }) : {}),
        },
      }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (contact: string) => api.removeDndContact({ params: { id: list.uuid, contact } }),
    onSuccess: () => {
      toastSuccess(t('Contato removido da lista com sucesso'));
      setConfirming(null);
      void members.refetch();
      onChanged();
    },
  });
  const rows = members.data?.data ?? [];
  const total = members.data?.pagination.total ?? 0;
  return (
    <Modal opened onClose={onClose} title={list.name} closeButtonProps={{ 'aria-label': t('Close') }}>
      {confirming ? (
        <Stack>
          <Text fw={500}>{confirming.name}</Text>
          <Text size="sm">{t(REMOVE_WARNING)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('Cancel')}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(confirming.uuid)}>
              {t('Remove')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <TextInput
            label={t('Search by name or phone')}
            leftSection={<IconSearch size={14} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
          />
          {members.isPending ? (
            <LoadingState />
          ) : members.isError ? (
            <ErrorState onRetry={() => void members.refetch()} />
          ) : !rows.length ? (
            <EmptyState text={t('No data found')} />
          ) : (
            <Table aria-label={t('Contacts')}>
              <Table.Tbody>
                {rows.map((m) => (
                  <Table.Tr key={m.uuid}>
                    <Table.Td>{m.name}</Table.Td>
                    <Table.Td>{m.phone_number}</Table.Td>
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('Remove {{name}}', { name: m.name })}
                        onClick={() => setConfirming({ uuid: m.uuid, name: m.name })}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {total > 0 && <PagedFooter total={total} limit={limit} page={page} onLimit={setLimit} onPage={setPage} />}
        </Stack>
      )}
    </Modal>
  );
}
