import { Alert, Anchor, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { ApiError } from '@atende/sdk';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api } from '../../api/client';
import { queryKeys, readLocalUser } from '../../session/session';
import { homeFor } from './home';

const LoginForm = z.object({
  email: z.string().trim().min(1, 'Required').email('Please insert a valid e-mail'),
  password: z.string().min(1, 'Required'),
});
type LoginForm = z.infer<typeof LoginForm>;

export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginForm>({ resolver: zodResolver(LoginForm), defaultValues: { email: '', password: '' } });
  const known = readLocalUser();
  if (known && queryClient.getQueryData(queryKeys.me)) return <Navigate to={homeFor(known.roles)} replace />;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const res = await api.login({ body: values });
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      void navigate(homeFor(res.data.roles), { replace: true });
    } catch (error) {
      setFailure(error instanceof ApiError && error.message ? error.message : 'Something went wrong');
    }
  });

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="form" onSubmit={submit} withBorder shadow="sm" p="xl" w={400} aria-label={t('Sign in to Atende')} noValidate>
        <Stack>
          <Title order={2}>{t('Sign in to Atende')}</Title>
          {params.get('max_agents_reached') === 'true' && (
            <Alert color="yellow">{t('The maximum number of users signed in was reached. Try again later.')}</Alert>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {t(failure)}
            </Alert>
          )}
          <TextInput
            label={t('Email')}
            type="email"
            autoComplete="username"
            autoFocus
            {...form.register('email')}
            error={form.formState.errors.email && t(form.formState.errors.email.message ?? 'Required')}
          />
          <PasswordInput
            label={t('Password')}
            autoComplete="current-password"
            {...form.register('password')}
            error={form.formState.errors.password && t(form.formState.errors.password.message ?? 'Required')}
          />
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('Sign in')}
          </Button>
          <Anchor size="xs" c="dimmed" href="/api/docs">
            API
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
