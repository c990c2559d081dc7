import { Text, VisuallyHidden } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration } from '../workstation/dayHistory';

/** Time logged in, hh:mm:ss, updated every 100 ms. */
export function LoggedTime({ since }: { since: string | null }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 100);
    return () => clearInterval(id);
  }, []);
  if (!since) return null;
  const seconds = Math.max(0, Math.floor((now - new Date(since).getTime()) / 1000));
  const text = formatDuration(seconds);
  return (
    <Text size="sm" ff="monospace" title={t('Logged in for')}>
      <VisuallyHidden>{t('Logged in for')} </VisuallyHidden>
      {text}
    </Text>
  );
}
