import { Select } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useEntryPointOptions } from './useEntryPointOptions';

/** A new channel's entry point: sectors, menus and bots, `type:uuid`; cleared = the workspace queue. */
export function EntryPointSelect({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange(value: string | null): void;
  error?: string;
}) {
  const { t } = useTranslation();
  const options = useEntryPointOptions();
  return (
    <Select
      label={t('Entry point')}
      description={t('Where new conversations of this channel start')}
      data={options}
      value={value}
      onChange={onChange}
      clearable
      placeholder={t('Workspace queue')}
      error={error}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
