import { Combobox, Group, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CannedResponse } from './useCannedSuggestions';

interface Props {
  matches: readonly CannedResponse[];
  fill(message: string): string;
}

/** The canned suggestions: keyword, category and the text as it will be sent. */
export function CannedOptions({ matches, fill }: Props) {
  const { t } = useTranslation();
  return (
    <Combobox.Options aria-label={t('Canned responses')} mah={240} style={{ overflowY: 'auto' }}>
      {matches.map((r) => (
        <Combobox.Option key={r.uuid} value={r.uuid}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={600}>
              /{r.keyword}
            </Text>
            {r.category && (
              <Text size="xs" opacity={0.7}>
                {r.category.name}
              </Text>
            )}
            {r.annex && (
              <Group gap={2} wrap="nowrap" opacity={0.7} style={{ minWidth: 0 }}>
                <IconPaperclip size={12} aria-hidden />
                <Text size="xs" truncate>
                  {r.annex.original_filename}
                </Text>
              </Group>
            )}
          </Group>
          {/* Secondary text by opacity, readable on the highlighted option too. */}
          <Text size="xs" opacity={0.7} lineClamp={2}>
            {fill(r.message)}
          </Text>
        </Combobox.Option>
      ))}
    </Combobox.Options>
  );
}
