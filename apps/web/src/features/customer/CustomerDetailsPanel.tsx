import type { Conversation } from '@atende/contract';
import type { countryForCallingCode } from '@atende/core';
import { Accordion, ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../../ui/states';
import { PanelLoading } from './PanelLoading';
import { ContactForm, type ContactEditor } from './ContactForm';
import { ContactView } from './ContactView';
import { useContact } from './queries';

export const DETAILS_ITEM = 'details';

interface Props {
  conversation: Conversation;
  editable: boolean;
  editing: boolean;
  country: ReturnType<typeof countryForCallingCode>;
  onEditingChange(editing: boolean): void;
  onEditor(editor: ContactEditor | null): void;
}

/** Customer details panel: read view, the pencil (only when editable) to the edit form. */
export function CustomerDetailsPanel({ conversation, editable, editing, country, onEditingChange, onEditor }: Props) {
  const { t } = useTranslation();
  const contact = useContact(conversation.contact.uuid);
  const data = contact.data;
  const label = t('Edit customer details');

  let body;
  if (contact.isError) body = <ErrorState onRetry={() => void contact.refetch()} />;
  else if (!data) body = <PanelLoading />;
  else if (editing && editable)
    body = <ContactForm key={data.uuid} contact={data} country={country} onDone={() => onEditingChange(false)} onEditor={onEditor} />;
  else body = <ContactView contact={data} />;

  return (
    <Accordion.Item value={DETAILS_ITEM}>
      <Group wrap="nowrap" gap={0} pr={4}>
        <Accordion.Control>
          <Text fw={600} size="sm">
            {t('Customer details')}
          </Text>
        </Accordion.Control>
        {editable && data && !editing && (
          <Tooltip label={label}>
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} onClick={() => onEditingChange(true)}>
              <IconPencil size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      <Accordion.Panel>{body}</Accordion.Panel>
    </Accordion.Item>
  );
}
