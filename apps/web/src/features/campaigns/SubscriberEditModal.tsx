import type { Subscriber } from '@atende/contract';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { reasonText } from '../../api/reasons';
import { toastSuccess } from '../../ui/toasts';
import { SUBSCRIBER_STATE_LABEL } from './phrases';

/** Pending, error and completed subscribers are edited (their state); they can move between those. */
export const EDITABLE_STATES = ['pending', 'error', 'completed'] as const;

export function SubscriberEditModal({
  campaignId,
  subscriber,
  onClose,
  onSaved,
}: {
  campaignId: string;
  subscriber: Subscriber;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<Subscriber['state']>(subscriber.state);
  const save = useMutation({
    mutationFn: () => api.updateSubscriber({ params: { id: campaignId, contact: subscriber.uuid }, body: { state } }),
    onSuccess: () => {
      toastSuccess(t('Subscriber edited successfully'));
      onSaved();
    },
  });
  return (
    <Modal opened onClose={onClose} title={t('Edit subscriber')} closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <Text size="sm">
          {subscriber.contact.name} · {subscriber.contact.phone_number}
        </Text>
        {subscriber.error_message && (
          <Text size="sm" c="red">
            {reasonText(subscriber.error_message, t)}
          </Text>
        )}
        <Select
          label={t('State')}
          data={EDITABLE_STATES.map((s) => ({ value: s, label: t(SUBSCRIBER_STATE_LABEL[s]) }))}
          value={state}
          allowDeselect={false}
          onChange={(v) => setState((v ?? subscriber.state) as Subscriber['state'])}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          {/* The submit stays disabled until the state has changed. */}
          <Button disabled={state === subscriber.state} loading={save.isPending} onClick={() => save.mutate()}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
