import type { Conversation } from '@atende/contract';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { workstationKeys } from './queries';

interface ModalProps {
  opened: boolean;
  onClose(): void;
  busy: boolean;
}

/** Finish with an optional, clearable reason. */
export function FinishModal({ opened, onClose, busy, onConfirm }: ModalProps & { onConfirm(reasonUuid: string | null): void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<string | null>(null);
  const reasons = useQuery({
    queryKey: workstationKeys.reasons,
    queryFn: async () => (await api.listConversationReasons({ query: {} })).data,
    enabled: opened,
    staleTime: 60_000,
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('Finish session')} size={464}>
      <Stack>
        <Select
          label={t('Finish reason')}
          placeholder={t('Optional')}
          clearable
          searchable
          data={(reasons.data ?? []).map((r) => ({ value: r.uuid, label: r.name }))}
          value={reason}
          onChange={setReason}
          nothingFoundMessage={t('No data found')}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button color="red" loading={busy} onClick={() => onConfirm(reason)}>
            {t('Finish')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Transfer session: to a sector (the conversation waits there) or to an agent of
 * it; changing the sector clears the agent.
 */
export function TransferModal({
  opened,
  onClose,
  busy,
  conversation,
  myUuid,
  onConfirm,
}: ModalProps & { conversation: Conversation; myUuid: string; onConfirm(sectorUuid: string, userUuid: string | null): void }) {
  const { t } = useTranslation();
  const [sector, setSector] = useState<string | null>(conversation.sector?.uuid ?? null);
  const [agent, setAgent] = useState<string | null>(null);
  const destinations = useQuery({
    queryKey: workstationKeys.transferDestinations,
    queryFn: async () => (await api.getTransferDestinations()).data,
    enabled: opened,
    staleTime: 10_000,
  });
  const agents = (destinations.data?.agents ?? []).filter(
    (a) => a.uuid !== myUuid && a.state !== 'offline' && (!sector || a.sector_uuids.length === 0 || a.sector_uuids.includes(sector)),
  );
  return (
    <Modal opened={opened} onClose={onClose} title={t('Transfer session')} size={464}>
      <Stack>
        <Select
          label={t('Sector')}
          required
          data={(destinations.data?.sectors ?? []).map((s) => ({ value: s.uuid, label: s.name }))}
          value={sector}
          onChange={(value) => {
            setSector(value);
            setAgent(null);
          }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('Agent')}
          description={t('Without an agent, the session waits in the sector queue')}
          placeholder={t('Any agent of the sector')}
          clearable
          searchable
          data={agents.map((a) => ({ value: a.uuid, label: a.state === 'paused' ? `${a.username} (${t('Paused')})` : a.username }))}
          value={agent}
          onChange={setAgent}
          nothingFoundMessage={t('No data found')}
          comboboxProps={{ withinPortal: true }}
        />
        {destinations.isError && (
          <Text c="red" size="sm">
            {t('The data could not be loaded.')}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button loading={busy} disabled={!sector} onClick={() => sector && onConfirm(sector, agent)}>
            {t('Transfer')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
