import { isFeatureOn, type Contact, type Tenant } from '@atende/contract';
import { ActionIcon, Modal, Tooltip, useModalsStack } from '@mantine/core';
import { IconAddressBook } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhonebookModal } from './PhonebookModal';
import { StartConversationModal } from './StartConversationModal';

/**
 * Phonebook button of the agent panel header (spec 000 §2). The Start-conversation modal opens over
 * the phonebook; once a conversation starts both close, and the workstation makes it active when the
 * realtime update-conversation event arrives (spec 000 §4 outbound-started).
 */
export function PhonebookButton({ tenant }: { tenant: Tenant }) {
  const { t } = useTranslation();
  const stack = useModalsStack(['phonebook', 'start-conversation']);
  const [contact, setContact] = useState<Contact | null>(null);
  const start = (chosen: Contact) => {
    setContact(chosen);
    stack.open('start-conversation');
  };
  return (
    <>
      <Tooltip label={t('Phonebook')}>
        <ActionIcon variant="light" size="lg" aria-label={t('Phonebook')} onClick={() => stack.open('phonebook')}>
          <IconAddressBook size={18} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
      <Modal.Stack>
        <PhonebookModal
          {...stack.register('phonebook')}
          defaultCallingCode={tenant.config.default_country_code}
          canStart={isFeatureOn(tenant, 'start_new_conversation')}
          onStartConversation={start}
        />
        <StartConversationModal {...stack.register('start-conversation')} contact={contact} onStarted={() => stack.closeAll()} />
      </Modal.Stack>
    </>
  );
}
