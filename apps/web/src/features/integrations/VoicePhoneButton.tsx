import { ActionIcon, Popover, Tooltip } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';

/** The embed's size. */
export const VOICE_PHONE_SIZE = { width: 350, height: 555 } as const;

/**
 * The voice-phone dropdown of the agent panel header: shown only when the integration
 * is on and its URL is on the provider's domains (the server decides). The phone stays loaded once
 * opened, so closing the dropdown never drops a call.
 */
export function VoicePhoneButton() {
  const { t } = useTranslation();
  const phone = useQuery({ queryKey: ['voice-phone'], queryFn: async () => (await api.getVoicePhone({})).data, staleTime: 5 * 60_000 });
  const [opened, setOpened] = useState(false);
  const [loaded, setLoaded] = useState(false);
  if (!phone.data?.enabled || !phone.data.url) return null;
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      position="bottom-end"
      // Always mounted (the iframe inside only once opened): switching keepMounted on at the first
      // open dropped floating-ui's position updates, and the phone stayed where a 0 px wide dropdown
      // would go, off the right edge of a 1280 px screen.
      keepMounted
      withArrow
      shadow="md"
      // The whole phone stays on screen at 1280×720 (kept inside the viewport, and
      // never taller than the space under the header).
      width={VOICE_PHONE_SIZE.width}
      middlewares={{ flip: false, shift: { padding: 8 } }}
      onOpen={() => setLoaded(true)}
    >
      <Popover.Target>
        <Tooltip label={t('Voice phone')}>
          <ActionIcon variant="light" size="lg" aria-label={t('Voice phone')} aria-expanded={opened} onClick={() => setOpened((o) => !o)}>
            <IconPhone size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        {loaded && (
          <iframe
            title={t('Voice phone')}
            src={phone.data.url}
            width={VOICE_PHONE_SIZE.width}
            height={VOICE_PHONE_SIZE.height}
            allow="microphone; autoplay; clipboard-write"
            style={{ border: 0, display: 'block', height: `min(${VOICE_PHONE_SIZE.height}px, calc(100dvh - 72px))` }}
          />
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
