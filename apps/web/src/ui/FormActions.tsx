import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A form's footer: Cancel, and the submit button (Save unless told). */
export function FormActions({
  onCancel,
  onSubmit,
  loading,
  disabled,
  submitLabel,
}: {
  onCancel(): void;
  onSubmit(): void;
  loading?: boolean;
  disabled?: boolean;
  submitLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        {t('Cancel')}
      </Button>
      <Button loading={loading} disabled={disabled} onClick={onSubmit}>
        {submitLabel ?? t('Save')}
      </Button>
    </Group>
  );
}
