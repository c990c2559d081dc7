import { templateStatusTone } from '@atende/core';
import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { phrase } from '../../i18n/phrase';

/** APPROVED online (green); PENDING, IN_APPEAL, PENDING_DELETION paused (amber); the rest offline (red). */
const TONE_COLOR = {
  online: 'var(--mantine-color-green-6)',
  paused: 'var(--mantine-color-yellow-6)',
  offline: 'var(--mantine-color-red-6)',
} as const;

/**
 * Statuses as the provider names them (English keeps the provider's word), translated in pt;
 * an unknown status shows as given.
 */
export const TEMPLATE_STATUS_LABEL: Record<string, string> = {
  APPROVED: phrase('APPROVED'),
  DELETED: phrase('DELETED'),
  DISABLED: phrase('DISABLED'),
  IN_APPEAL: phrase('IN_APPEAL'),
  LIMIT_EXCEEDED: phrase('LIMIT_EXCEEDED'),
  PAUSED: phrase('PAUSED'),
  PENDING: phrase('PENDING'),
  PENDING_DELETION: phrase('PENDING_DELETION'),
  REJECTED: phrase('REJECTED'),
};

/** Meta's rejection reasons, readable (anything else shows as the provider wrote it). */
export const REJECTION_REASON_LABEL: Record<string, string> = {
  INVALID_FORMAT: phrase('The template format is not valid'),
  ABUSIVE_CONTENT: phrase('The content breaks the provider policy (abusive content)'),
  INCORRECT_CATEGORY: phrase('The category does not match the content'),
  TAG_CONTENT_MISMATCH: phrase('The category does not match the content'),
  SCAM: phrase('The content looks like a scam'),
  PROMOTIONAL: phrase('Promotional content is not allowed in this category'),
  NONE: phrase('Rejected without a reason given'),
};

export function rejectionReasonText(reason: string, t: (key: string) => string): string {
  const label = REJECTION_REASON_LABEL[reason.trim().toUpperCase()];
  return label ? t(label) : reason;
}

export function TemplateStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = templateStatusTone(status);
  const label = TEMPLATE_STATUS_LABEL[status.toUpperCase()];
  return (
    <Group gap={6} wrap="nowrap" data-tone={tone}>
      <span aria-hidden style={{ width: 10, height: 10, borderRadius: '50%', background: TONE_COLOR[tone], display: 'inline-block' }} />
      <Text size="sm" fw={500}>
        {label ? t(label) : status.toUpperCase()}
      </Text>
    </Group>
  );
}
