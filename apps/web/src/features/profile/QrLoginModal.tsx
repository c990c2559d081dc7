import { Center, Image, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { LoadingState } from '../../ui/states';

/** Login via app (flag qr_code_login): a one-time code, refreshed every 15 s while open (spec 000 §9). */
export function QrLoginModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const qr = useQuery({
    queryKey: ['login-qr-code'],
    enabled: opened,
    refetchInterval: 15_000,
    gcTime: 0,
    queryFn: async () => {
      const { data } = await api.getLoginQrCode();
      return QRCode.toDataURL(JSON.stringify({ login_code: data.login_code, tenant_domain: data.tenant_domain }), { width: 240, margin: 1 });
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t('Login via app')} size={464}>
      <Stack>
        <Text size="sm">{t('Scan this code with the Atende app to sign in. It refreshes every 15 seconds.')}</Text>
        <Center>{qr.data ? <Image src={qr.data} w={240} h={240} alt={t('Login via app')} /> : <LoadingState />}</Center>
      </Stack>
    </Modal>
  );
}
