import type { User } from '@atende/contract';
import { quietApi as client } from '../api/client';

// The calls of the sign-in page, which answers their failures itself: through the app's typed client,
// which loads no zod schema (it takes each route's method and path from the route table), so the page,
// served on its own (login.html) without query cache or router, stays small (≤ 150 KB).

/** Signs in (the session cookie is set by the answer) and returns the signed-in user. */
export async function signIn(email: string, password: string): Promise<User> {
  await client.login({ body: { email, password } });
  return currentUser();
}

/** The signed-in user, or an ApiError (401 when the session is gone). */
export async function currentUser(): Promise<User> {
  return (await client.getMe()).data;
}

/** Whether the server mails password recovery codes; false when it cannot say. */
export async function passwordRecoveryOffered(): Promise<boolean> {
  return (await client.getSignInOptions().catch(() => null))?.data.password_recovery === true;
}

/**
 * Asks for a recovery code (the answer is the same whether or not the address is an account's): the
 * minutes the code stays valid, as the server says.
 */
export async function requestRecoveryCode(email: string): Promise<number> {
  const answer = await client.requestPasswordReset({ body: { email } });
  return Math.round(answer.data.expires_in / 60);
}

/** Sets the new password with the mailed code (every session of the account ends), then signs in with it. */
export async function resetPasswordAndSignIn(email: string, code: string, password: string): Promise<User> {
  await client.resetPasswordWithCode({ body: { email, code, password } });
  return signIn(email, password);
}
