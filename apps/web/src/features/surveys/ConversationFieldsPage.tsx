import { roleCovers } from '@atende/core';
import { Button, Group, Stack, Table, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useMe } from '../../session/session';
import { ListHeader } from '../../ui/ListHeader';
import { ListStates } from '../../ui/states';
import { toastSuccess } from '../../ui/toasts';

/** Settings > Conversation fields (flag conversation_fields): the fields agents fill on a conversation; admins add them. */
export function ConversationFieldsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const me = useMe().data;
  const isAdmin =
    !!me &&
    roleCovers(
      me.roles.map((r) => r.name),
      'admin',
    );
  const fields = useQuery({ queryKey: ['conversation-fields'], queryFn: async () => (await api.listConversationFieldDefinitions()).data });
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => api.createConversationFieldDefinition({ body: { name: name.trim() } }),
    onSuccess: () => {
      toastSuccess(t('Field created successfully'));
      setName('');
      void queryClient.invalidateQueries({ queryKey: ['conversation-fields'] });
    },
  });
  return (
    <Stack maw={640}>
      <ListHeader title={t('Conversation fields')} />
      {isAdmin && (
        <Group align="flex-end">
          <TextInput
            style={{ flex: 1 }}
            label={t('New field')}
            maxLength={120}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Button disabled={!name.trim()} loading={create.isPending} onClick={() => create.mutate()}>
            {t('Add')}
          </Button>
        </Group>
      )}
      <ListStates query={fields} empty={t('No fields yet')}>
        {(rows) => (
          <Table striped aria-label={t('Conversation fields')}>
            <Table.Tbody>
              {rows.map((f) => (
                <Table.Tr key={f.uuid}>
                  <Table.Td>{f.name}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
    </Stack>
  );
}
