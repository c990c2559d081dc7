import type { Tenant } from '@atende/contract';
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconAddressBook } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyComponent } from '../../ui/lazyPage';

const PhonebookDialogs = lazyComponent(() => import('./PhonebookDialogs'), 'PhonebookDialogs');

/**
 * Phonebook button of the agent panel header. The Start-conversation modal opens over
 * the phonebook; once a conversation starts both close, and the workstation makes it active when the
 * realtime update-conversation event arrives (outbound-started). The dialogs' code (and the
 * phone number library) loads at the first click.
 */
export function PhonebookButton({ tenant }: { tenant: Tenant }) {
  const { t } = useTranslation();
  const [opens, setOpens] = useState(0);
  return (
    <>
      <Tooltip label={t('Phonebook')}>
        <ActionIcon variant="light" size="lg" aria-label={t('Phonebook')} onClick={() => setOpens((n) => n + 1)}>
          <IconAddressBook size={18} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
      {opens > 0 && <PhonebookDialogs tenant={tenant} openSignal={opens} />}
    </>
  );
}
