import { Alert, Anchor, Button } from '@mantine/core';
import type { User } from '@atende/contract';
import { ApiError } from '@atende/sdk';
import { errorText } from '../../api/errors';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCAL_USER_KEY, readLocalUser, saveLocalUser } from '../../session/localUser';
import { currentUser, passwordRecoveryOffered, signIn } from '../../session/signIn';
import { PasswordField } from '../../ui/PasswordField';
import { LoadingState } from '../../ui/states';
import { AuthCard, EmailField } from './AuthCard';
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
 * The sign-in form of /login, light enough to be the whole of login.html: plain state,
 * no form or query library. A browser that kept user data first asks, quietly, whether its session
 * still holds; a signed-in user (kept or new) goes to `onSignedIn`. A failed sign-in shows the
 * server's message; ?max_agents_reached=true shows the max-users state. "Forgot password?" appears
 * when the server mails recovery codes.
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
      setFailure(error instanceof ApiError && error.status !== 0 ? errorText(error, t) : 'Something went wrong');
      setSubmitting(false);
    }
  };

  return (
    <AuthCard
      title={t('Sign in to Atende')}
      titleId="login-title"
      failure={failure}
      onSubmit={(e) => void submit(e)}
      notice={
        maxAgentsReached && (
          <Alert color="yellow" role="status">
            {t('The maximum number of users signed in was reached. Try again later.')}
          </Alert>
        )
      }
    >
      <EmailField value={email} onChange={setEmail} error={errors.email} />
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
    </AuthCard>
  );
}
