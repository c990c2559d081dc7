import { Alert, Badge, Center, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import type { WhatsAppWebConnection } from '@atende/contract';
import { api } from '../../api/client';
import { phrase } from '../../i18n/phrase';
import { ErrorState } from '../../ui/states';

/** While the phone is not linked the QR code changes every few seconds at the bridge: asked again this often. */
const LINKING_REFRESH_MS = 4_000;
/** A linked phone is checked now and then, so a disconnection shows without reloading. */
const LINKED_REFRESH_MS = 30_000;

const STATES: Record<WhatsAppWebConnection['state'], { label: string; color: string }> = {
  open: { label: phrase('Connected'), color: 'green' },
  connecting: { label: phrase('Waiting for the QR code to be scanned'), color: 'yellow' },
  close: { label: phrase('Disconnected'), color: 'red' },
};

/** The QR code to show: the bridge's picture, or one drawn from its text when it gives none. */
async function linkOf(id: string): Promise<WhatsAppWebConnection> {
  const { data } = await api.getWhatsAppWebConnection({ params: { id } });
  if (data.qr || !data.code) return data;
  return { ...data, qr: await QRCode.toDataURL(data.code, { width: 264, margin: 1 }) };
}

/**
 * A WhatsApp Web channel's phone, as its bridge sees it: connected, or the QR code to scan with
 * WhatsApp on the phone (Linked devices), refreshed every few seconds until it is linked.
 */
export function WhatsAppWebLink({ channelId }: { channelId: string }) {
  const { t } = useTranslation();
  const link = useQuery({
    queryKey: ['channels', channelId, 'whatsapp-web'],
    queryFn: () => linkOf(channelId),
    refetchInterval: (query) => (query.state.data?.state === 'open' ? LINKED_REFRESH_MS : LINKING_REFRESH_MS),
    gcTime: 0,
    staleTime: 0,
  });
  if (link.isPending)
    return (
      <Center mih={80}>
        <Loader size="sm" />
      </Center>
    );
  if (link.isError) return <ErrorState onRetry={() => void link.refetch()} />;
  const state = STATES[link.data.state];
  return (
    <Alert color={state.color} title={t('WhatsApp phone')} data-testid="whatsapp-web-link">
      <Stack gap="xs">
        <Group gap="xs">
          <Badge color={state.color} variant="light">
            {t(state.label)}
          </Badge>
        </Group>
        {link.data.state !== 'open' &&
          (link.data.qr ? (
            <>
              <Text size="sm">{t('On the phone, open WhatsApp, go to Linked devices and scan this code.')}</Text>
              <Image src={link.data.qr} w={264} h={264} alt={t('QR code to link the phone')} data-testid="whatsapp-web-qr" />
            </>
          ) : (
            <Text size="sm">{t('The bridge shows no QR code yet; it is asked again in a few seconds.')}</Text>
          ))}
      </Stack>
    </Alert>
  );
}
