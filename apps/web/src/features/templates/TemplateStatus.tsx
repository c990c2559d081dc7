import { templateStatusTone } from '@atende/core';
import { Group, Text } from '@mantine/core';

/** Spec 002 §2: APPROVED online (green); PENDING, IN_APPEAL, PENDING_DELETION paused (amber); the rest offline (red). */
const TONE_COLOR = { online: 'var(--mantine-color-green-6)', paused: 'var(--mantine-color-yellow-6)', offline: 'var(--mantine-color-red-6)' } as const;

export function TemplateStatus({ status }: { status: string }) {
  const tone = templateStatusTone(status);
  return (
    <Group gap={6} wrap="nowrap" data-tone={tone}>
      <span aria-hidden style={{ width: 10, height: 10, borderRadius: '50%', background: TONE_COLOR[tone], display: 'inline-block' }} />
      <Text size="sm" fw={500}>
        {status.toUpperCase()}
      </Text>
    </Group>
  );
}
