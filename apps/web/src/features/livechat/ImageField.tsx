import { Avatar, Button, FileButton, Group, TextInput } from '@mantine/core';
import { Uuid } from '@atende/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';

/** Where the admin's browser loads an appearance image: an uploaded file through the session, or the https address itself. */
export const adminImageUrl = (ref: string | null): string | null =>
  ref ? (Uuid.safeParse(ref).success ? `/api/v1/storage/files/${ref}` : ref) : null;

/** An appearance image: uploaded to the storage module (its id is kept) or typed as an https address. */
export function ImageField({
  label,
  value,
  onChange,
  error,
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(false);
  const uploaded = value !== null && Uuid.safeParse(value).success;
  const upload = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      const body = new FormData();
      body.append('file', file);
      onChange((await api.uploadFile({ body })).data.data.uuid);
    } finally {
      setUploading(false);
    }
  };
  return (
    <Group align="flex-end" wrap="nowrap">
      <Avatar src={adminImageUrl(value)} radius="sm" size={36} />
      <TextInput
        style={{ flex: 1 }}
        label={label}
        placeholder="https://"
        value={uploaded ? t('Uploaded file') : (value ?? '')}
        readOnly={uploaded}
        error={error}
        onChange={(e) => onChange(e.currentTarget.value.trim() ? e.currentTarget.value : null)}
      />
      <FileButton onChange={(file) => void upload(file)} accept="image/png,image/jpeg,image/gif,image/webp">
        {(props) => (
          <Button variant="default" loading={uploading} {...props}>
            {t('Upload')}
          </Button>
        )}
      </FileButton>
      {value && (
        <Button variant="subtle" color="red" onClick={() => onChange(null)}>
          {t('Remove')}
        </Button>
      )}
    </Group>
  );
}
