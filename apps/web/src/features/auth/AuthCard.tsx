import { Alert, Center, Paper, Stack, TextInput, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The card of the sign-in page's forms (sign in, forgot password): a titled form and its failure. */
export function AuthCard({
  title,
  titleId,
  notice,
  failure,
  onSubmit,
  children,
}: {
  title: string;
  titleId: string;
  notice?: ReactNode;
  failure: string | null;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="form" onSubmit={onSubmit} withBorder shadow="sm" p="xl" w={400} aria-labelledby={titleId} noValidate>
        <Stack>
          <Title order={2} id={titleId}>
            {title}
          </Title>
          {notice}
          {failure && (
            <Alert color="red" role="alert">
              {t(failure)}
            </Alert>
          )}
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}

/** The e-mail field of those forms; `error` is an untranslated phrase. */
export function EmailField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const { t } = useTranslation();
  return (
    <TextInput
      label={t('Email')}
      type="email"
      autoComplete="username"
      autoFocus
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error ? t(error) : undefined}
    />
  );
}
