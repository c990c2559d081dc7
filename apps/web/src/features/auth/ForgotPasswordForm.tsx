import { Alert, Anchor, Button, Text, TextInput } from '@mantine/core';
import type { FieldError, User } from '@atende/contract';
import type { TFunction } from 'i18next';
import { errorText, fieldText } from '../../api/errors';
import { ApiError } from '@atende/sdk';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { saveLocalUser } from '../../session/localUser';
import { requestRecoveryCode, resetPasswordAndSignIn } from '../../session/signIn';
import { PasswordField } from '../../ui/PasswordField';
import { AuthCard, EmailField } from './AuthCard';
import { EMAIL } from './emailShape';

type Field = 'email' | 'code' | 'password' | 'confirm';
type Errors = Partial<Record<Field, string>>;

/** A failed call's words, by its code: a field's problem (the api's password rules) under that field, else the failure's. */
function failureOf(error: unknown, t: TFunction): { field?: Field; message: string } {
  if (!(error instanceof ApiError) || error.status === 0) return { message: 'Something went wrong' };
  const fields = (error.body as { fields?: FieldError[] } | undefined)?.fields;
  const first = Array.isArray(fields) ? fields[0] : undefined;
  if (
    error.code === 'validation_failed' &&
    typeof first?.message === 'string' &&
    (first.path === 'email' || first.path === 'code' || first.path === 'password')
  ) {
    return { field: first.path, message: fieldText(first, t) };
  }
  return { message: errorText(error, t) };
}

/**
 * Forgot password by e-mail code, part of the light sign-in page (no zod, router
 * or query cache): the address, then the 6-digit code mailed to it with the new password. The
 * answer to the address never says whether it is an account's; the password rules are the api's.
 */
export function ForgotPasswordForm({
  initialEmail,
  onBack,
  onSignedIn,
}: {
  initialEmail: string;
  onBack: () => void;
  onSignedIn: (me: User) => void;
}) {
  const { t } = useTranslation();
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [minutes, setMinutes] = useState(0);
  const [email, setEmail] = useState(initialEmail);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (checked: Errors, action: () => Promise<void>) => {
    setErrors(checked);
    setFailure(null);
    if (Object.keys(checked).length) return;
    setBusy(true);
    try {
      await action();
    } catch (error) {
      const { field, message } = failureOf(error, t);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setBusy(false);
    }
  };

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    const checked: Errors = !address ? { email: 'Required' } : !EMAIL.test(address) ? { email: 'Please insert a valid e-mail' } : {};
    void run(checked, async () => {
      setMinutes(await requestRecoveryCode(address));
      setCode('');
      setStep('code');
    });
  };

  const setNewPassword = (event: FormEvent) => {
    event.preventDefault();
    const checked: Errors = {};
    if (!/^\d{6}$/.test(code.trim())) checked.code = 'The code has 6 digits';
    if (!password) checked.password = 'Required';
    if (confirm !== password) checked.confirm = 'The passwords must match';
    void run(checked, async () => {
      const me = await resetPasswordAndSignIn(email.trim(), code.trim(), password);
      saveLocalUser(me);
      onSignedIn(me);
    });
  };

  return (
    <AuthCard title={t('Forgot password')} titleId="forgot-title" failure={failure} onSubmit={step === 'email' ? sendCode : setNewPassword}>
      {step === 'email' ? (
        <>
          <Text size="sm">{t('Enter your e-mail. If it belongs to an account, we will send it a 6-digit code.')}</Text>
          <EmailField value={email} onChange={setEmail} error={errors.email} />
          <Button type="submit" loading={busy}>
            {t('Send code')}
          </Button>
        </>
      ) : (
        <>
          <Alert color="blue" role="status">
            {t('If {{email}} belongs to an account, a 6-digit code was sent to it. It is valid for {{minutes}} minutes.', {
              email: email.trim(),
              minutes,
            })}
          </Alert>
          <TextInput
            label={t('Code')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={errors.code ? t(errors.code) : undefined}
          />
          <PasswordField
            label={t('New password')}
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password ? t(errors.password) : undefined}
          />
          <PasswordField
            label={t('Confirm the new password')}
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.currentTarget.value)}
            error={errors.confirm ? t(errors.confirm) : undefined}
          />
          <Button type="submit" loading={busy}>
            {t('Set password and sign in')}
          </Button>
          <Anchor component="button" type="button" size="sm" onClick={() => setStep('email')}>
            {t('Send a new code')}
          </Anchor>
        </>
      )}
      <Anchor component="button" type="button" size="sm" onClick={onBack}>
        {t('Back to sign in')}
      </Anchor>
    </AuthCard>
  );
}
