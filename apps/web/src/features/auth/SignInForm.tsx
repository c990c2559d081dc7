import { Alert, Anchor, Button, Center, Paper, Stack, TextInput, Title } from '@mantine/core';
import type { User } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCAL_USER_KEY, readLocalUser, saveLocalUser } from '../../session/localUser';
import { currentUser, passwordRecoveryOffered, signIn } from '../../session/signIn';
import { PasswordField } from '../../ui/PasswordField';
import { LoadingState } from '../../ui/states';
import { EMAIL } from './emailShape';
import { ForgotPasswordForm } from './ForgotPasswordForm';


interface Fields {
  email?: string;
  password?: string;
}

function check(email: string, password: string): Fields {
  const fields: Fields = {};
  if (!email.trim()) fields.email = 'Required';
  else if (!EMAIL.test(email.trim())) fields.email = 'Please insert a valid e-mail';
  if (!password) fields.password = 'Required';
  return fields;
}

/**
 * The sign-in form of /login (spec 000 §2), light enough to be the whole of login.html: plain state,
 * no form or query library. A browser that kept user data first asks, quietly, whether its session
 * still holds; a signed-in user (kept or new) goes to `onSignedIn`. A failed sign-in shows the
 * server's message; ?max_agents_reached=true shows the max-users state. "Forgot password?" appears
 * when the server mails recovery codes (issue 16 item 11).
 */
export function SignInForm({ onSignedIn }: { onSignedIn: (me: User) => void }) {
  const { t } = useTranslation();
  const [checking, setChecking] = useState(() => readLocalUser() !== null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Fields>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [recoveryOffered, setRecoveryOffered] = useState(false);
  const [forgot, setForgot] = useState(false);
  const maxAgentsReached = new URLSearchParams(location.search).get('max_agents_reached') === 'true';

  useEffect(() => {
    let live = true;
    void passwordRecoveryOffered().then((offered) => live && setRecoveryOffered(offered));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (!checking) return;
    let live = true;
    currentUser().then(
      (me) => live && onSignedIn(me),
      () => {
        // The kept data belonged to a session that is gone.
        localStorage.removeItem(LOCAL_USER_KEY);
        if (live) setChecking(false);
      },
    );
    return () => {
      live = false;
    };
  }, [checking, onSignedIn]);

  if (checking) return <LoadingState />;
  if (forgot) return <ForgotPasswordForm initialEmail={email} onBack={() => setForgot(false)} onSignedIn={onSignedIn} />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check(email, password);
    setErrors(found);
    if (found.email || found.password) return;
    setFailure(null);
    setSubmitting(true);
    try {
      const me = await signIn(email.trim(), password);
      saveLocalUser(me);
      onSignedIn(me);
    } catch (error) {
      setFailure(error instanceof ApiError && error.status !== 0 && error.message ? error.message : 'Something went wrong');
      setSubmitting(false);
    }
  };

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper component="form" onSubmit={(e) => void submit(e)} withBorder shadow="sm" p="xl" w={400} aria-labelledby="login-title" noValidate>
        <Stack>
          <Title order={2} id="login-title">
            {t('Sign in to Atende')}
          </Title>
          {maxAgentsReached && (
            <Alert color="yellow" role="status">
              {t('The maximum number of users signed in was reached. Try again later.')}
            </Alert>
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
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={errors.email ? t(errors.email) : undefined}
          />
          <PasswordField
            label={t('Password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password ? t(errors.password) : undefined}
          />
          <Button type="submit" loading={submitting}>
            {t('Sign in')}
          </Button>
          {recoveryOffered && (
            <Anchor component="button" type="button" size="sm" onClick={() => setForgot(true)}>
              {t('Forgot password?')}
            </Anchor>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
