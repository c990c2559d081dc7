import { Alert, Button, Center, Paper, Stack, TextInput, Title } from '@mantine/core';
import { ApiError } from '@atende/sdk';
import { PasswordField } from '../../ui/PasswordField';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api, quietApi } from '../../api/client';
import { LOCAL_USER_KEY, queryKeys, readLocalUser, saveLocalUser } from '../../session/session';
import { LoadingState } from '../../ui/states';
import { homeFor } from './home';
import { NoAccessPage } from './NoAccessPage';

const LoginFormSchema = z.object({
  email: z.string().trim().min(1, 'Required').pipe(z.email('Please insert a valid e-mail')),
  password: z.string().min(1, 'Required'),
});
type LoginForm = z.infer<typeof LoginFormSchema>;

/**
 * /login (spec 000 §2). Someone still signed in goes on to /app or /admin; the max-users-reached
 * state arrives as ?max_agents_reached=true. A failed sign-in shows the server's message.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LoginForm>({ resolver: zodResolver(LoginFormSchema), defaultValues: { email: '', password: '' } });
  // Only a browser that kept user data asks whether its session still holds; the answer is quiet.
  const session = useQuery({
    queryKey: queryKeys.me,
    queryFn: async () => (await quietApi.getMe()).data,
    enabled: readLocalUser() !== null,
    retry: false,
  });

  useEffect(() => {
    // The kept data belonged to a session that is gone.
    if (session.isError) localStorage.removeItem(LOCAL_USER_KEY);
  }, [session.isError]);

  if (session.fetchStatus === 'fetching' && !session.data) return <LoadingState />;
  if (session.data) {
    const home = homeFor(session.data.roles.map((r) => r.name));
    return home ? <Navigate to={home} replace /> : <NoAccessPage />;
  }

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await api.login({ body: values });
      const me = (await api.getMe()).data;
      saveLocalUser(me);
      queryClient.setQueryData(queryKeys.me, me);
      void navigate(homeFor(me.roles.map((r) => r.name)) ?? '/', { replace: true });
    } catch (error) {
      setFailure(error instanceof ApiError && error.status !== 0 && error.message ? error.message : 'Something went wrong');
    }
  });
  const fieldError = (name: keyof LoginForm) => {
    const message = form.formState.errors[name]?.message;
    return message ? t(message) : undefined;
  };

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="form" onSubmit={submit} withBorder shadow="sm" p="xl" w={400} aria-labelledby="login-title" noValidate>
        <Stack>
          <Title order={2} id="login-title">
            {t('Sign in to Atende')}
          </Title>
          {params.get('max_agents_reached') === 'true' && (
            <Alert color="yellow" role="status">
              {t('The maximum number of users signed in was reached. Try again later.')}
            </Alert>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {t(failure)}
            </Alert>
          )}
          <TextInput label={t('Email')} type="email" autoComplete="username" autoFocus {...form.register('email')} error={fieldError('email')} />
          <PasswordField label={t('Password')} autoComplete="current-password" {...form.register('password')} error={fieldError('password')} />
          <Button type="submit" loading={form.formState.isSubmitting}>
            {t('Sign in')}
          </Button>
        </Stack>
      </Paper>
    </Center>
  );
}
