import { Center, Image, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { queryKeys } from '../../session/session';
import { ErrorState, LoadingState } from '../../ui/states';

/** The QR login code is refreshed every 15 s while the modal is open. */
const QR_REFRESH_MS = 15_000;

/** Login via app (flag qr_code_login): a QR of {login_code, tenant_domain} for the mobile app. */
export function QrLoginModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const qr = useQuery({
    queryKey: queryKeys.loginQrCode,
    enabled: opened,
    refetchInterval: QR_REFRESH_MS,
    gcTime: 0,
    staleTime: 0,
    queryFn: async () => {
      const { data } = await api.getLoginQrCode();
      return QRCode.toDataURL(JSON.stringify({ login_code: data.login_code, tenant_domain: data.tenant_domain }), {
        width: 240,
        margin: 1,
      });
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('Login via app')} size="sm" closeButtonProps={{ 'aria-label': t('Close') }}>
      <Stack>
        <Text size="sm">{t('Scan this code with the Atende app to sign in. It refreshes every 15 seconds.')}</Text>
        <Center mih={240}>
          {qr.data ? (
            <Image src={qr.data} w={240} h={240} alt={t('QR code to sign in with the app')} data-testid="login-qr-code" />
          ) : qr.isError ? (
            <ErrorState onRetry={() => void qr.refetch()} />
          ) : (
            <LoadingState />
          )}
        </Center>
      </Stack>
    </Modal>
  );
}
