import type { Conversation } from '@atende/contract';
import { countryForCallingCode } from '@atende/core';
import { Accordion, Stack, VisuallyHidden } from '@mantine/core';
import { useCallback, useRef, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../../session/session';
import { BindSelectedText, type BindOptionGroup } from './BindSelectedText';
import { bindFieldId, bindingTarget, contactBindFields, contactPatchFor, contactValue, type BindField } from './bindTargets';
import type { ContactEditor } from './ContactForm';
import { ConversationFieldsPanel, FIELDS_ITEM } from './ConversationFieldsPanel';
import { CustomerDetailsPanel, DETAILS_ITEM } from './CustomerDetailsPanel';
import { CONTACT_FIELD_LABELS } from './fieldLabels';
import { JOURNEY_ITEM, JourneyPanel } from './JourneyPanel';
import { useContact, useConversationFields, useFieldDefinitions, useSetConversationField, useUpdateContact } from './queries';
import { useBindableSelection } from './useBindableSelection';

export interface CustomerPanelsProps {
  conversation: Conversation;
  /** The customer-details pencil (and binding chat text into fields) only when editable. */
  editable: boolean;
  /** Conversation-field add/edit controls only on /app. */
  showConversationFields: boolean;
}

/**
 * The right-hand column of the workstation: customer details, customer journey (flag
 * contact_journey) and conversation fields (flag conversation_fields), each collapsible; above them,
 * while the agent has text selected in the chat, the selected-text binding.
 */
export function CustomerPanels({ conversation, editable, showConversationFields }: CustomerPanelsProps): JSX.Element {
  const { t } = useTranslation();
  const tenant = useTenant().data;
  const features = tenant?.config.features ?? {};
  const journeyOn = features.contact_journey === true;
  const fieldsOn = features.conversation_fields === true;
  const fieldControls = fieldsOn && showConversationFields;
  const country = countryForCallingCode(tenant?.config.default_country_code);

  const [open, setOpen] = useState<string[]>([DETAILS_ITEM, JOURNEY_ITEM, FIELDS_ITEM]);
  const expand = (item: string) => setOpen((items) => (items.includes(item) ? items : [...items, item]));
  // The edit form belongs to one conversation: another conversation opens in the read view.
  const [editingUuid, setEditingUuid] = useState<string | null>(null);
  const editing = editingUuid === conversation.uuid;
  const setEditing = (on: boolean) => {
    setEditingUuid(on ? conversation.uuid : null);
    if (on) expand(DETAILS_ITEM);
  };
  const editor = useRef<ContactEditor | null>(null);
  const onEditor = useCallback((e: ContactEditor | null) => {
    editor.current = e;
  }, []);

  const selection = useBindableSelection(conversation.uuid);
  const contact = useContact(conversation.contact.uuid).data;
  const values = useConversationFields(conversation.uuid, fieldsOn).data;
  const definitions = useFieldDefinitions(fieldControls).data;
  const updateContact = useUpdateContact(conversation.contact.uuid);
  const setField = useSetConversationField(conversation.uuid);

  const contactFields = editable && contact ? contactBindFields(contact) : [];
  const conversationFields: BindField[] = fieldControls
    ? (definitions ?? []).map((d) => ({ type: 'conversation', fieldUuid: d.uuid, name: d.name }))
    : [];
  const byId = new Map([...contactFields, ...conversationFields].map((f) => [bindFieldId(f), f]));
  const label = (f: BindField) => (f.type === 'contact' ? t(CONTACT_FIELD_LABELS[f.key]) : f.name);
  const options: BindOptionGroup[] = [
    { group: t('Customer details'), items: contactFields.map((f) => ({ value: bindFieldId(f), label: label(f) })) },
    { group: t('Conversation fields'), items: conversationFields.map((f) => ({ value: bindFieldId(f), label: label(f) })) },
  ].filter((g) => g.items.length > 0);

  const targetOf = (id: string) => {
    const field = byId.get(id);
    if (!field) return null;
    if (field.type === 'conversation') return bindingTarget(field, values?.find((v) => v.field_uuid === field.fieldUuid)?.field_value);
    if (!contact) return null;
    return bindingTarget(field, editor.current ? editor.current.get(field) : contactValue(contact, field));
  };
  const apply = async (id: string, value: string) => {
    const field = byId.get(id);
    if (!field) return;
    if (field.type === 'conversation') {
      await setField.mutateAsync({ field_uuid: field.fieldUuid, field_value: value });
      expand(FIELDS_ITEM);
    } else if (editor.current) {
      // While the form is open the text goes into it; Save stores it with the rest.
      editor.current.set(field, value);
    } else if (contact) {
      await updateContact.mutateAsync(contactPatchFor(contact, field, value));
      expand(DETAILS_ITEM);
    }
  };

  return (
    <Stack gap="sm" style={{ minWidth: 0 }} data-testid="customer-panels">
      <VisuallyHidden aria-live="polite">
        {selection.text && options.length > 0 ? t('Text selected in the chat: it can be bound to a field in the customer panel.') : ''}
      </VisuallyHidden>
      {selection.text && options.length > 0 && (
        <BindSelectedText
          key={selection.text}
          text={selection.text}
          options={options}
          targetOf={targetOf}
          apply={apply}
          onDone={selection.clear}
        />
      )}
      <Accordion multiple value={open} onChange={setOpen} variant="separated" radius="md" chevronPosition="right">
        <CustomerDetailsPanel
          conversation={conversation}
          editable={editable}
          editing={editing}
          country={country}
          onEditingChange={setEditing}
          onEditor={onEditor}
        />
        {journeyOn && <JourneyPanel conversation={conversation} />}
        {fieldsOn && (
          <ConversationFieldsPanel
            key={conversation.uuid}
            conversation={conversation}
            showControls={showConversationFields}
            onExpand={() => expand(FIELDS_ITEM)}
          />
        )}
      </Accordion>
    </Stack>
  );
}
