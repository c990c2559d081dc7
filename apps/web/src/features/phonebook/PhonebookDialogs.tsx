import { isFeatureOn, type Contact, type Tenant } from '@atende/contract';
import { Modal, useModalsStack } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { PhonebookModal } from './PhonebookModal';
import { StartConversationModal } from './StartConversationModal';

/**
 * The phonebook and the Start-conversation modal over it. Its own chunk, loaded when the
 * phonebook is first opened; each new `openSignal` opens the phonebook again.
 */
export function PhonebookDialogs({ tenant, openSignal }: { tenant: Tenant; openSignal: number }) {
  const stack = useModalsStack(['phonebook', 'start-conversation']);
  const [contact, setContact] = useState<Contact | null>(null);
  const handled = useRef(0);
  useEffect(() => {
    if (openSignal === handled.current) return;
    handled.current = openSignal;
    stack.open('phonebook');
  }, [openSignal, stack]);
  const start = (chosen: Contact) => {
    setContact(chosen);
    stack.open('start-conversation');
  };
  return (
    <Modal.Stack>
      <PhonebookModal
        {...stack.register('phonebook')}
        defaultCallingCode={tenant.config.default_country_code}
        canStart={isFeatureOn(tenant, 'start_new_conversation')}
        onStartConversation={start}
      />
      <StartConversationModal {...stack.register('start-conversation')} contact={contact} onStarted={() => stack.closeAll()} />
    </Modal.Stack>
  );
}
