import type { RouteAddress, Routes, User } from '@atende/contract';
import { callRoute, type ClientOptions } from '@atende/sdk';

// The calls of the sign-in page, typed by the contract but without its runtime: the page is served
// on its own (login.html) and loads no zod schema, query cache or router (issue 13 item 1: ≤ 150 KB).
// The typechecker holds each method and path to the contract's; the api still validates the body.

/** A contract route reduced to what `callRoute` sends; its types are the contract's own. */
const lite = <K extends keyof Routes>(def: RouteAddress<Routes[K]>) => def as Routes[K];

const LOGIN = lite<'login'>({ method: 'POST', path: '/api/v1/login', bodyEncoding: 'form' });
const GET_ME = lite<'getMe'>({ method: 'GET', path: '/api/v1/users/me' });
const SIGN_IN_OPTIONS = lite<'getSignInOptions'>({ method: 'GET', path: '/api/v1/login/options' });
const FORGOT = lite<'requestPasswordReset'>({ method: 'POST', path: '/api/v1/password/forgot' });
const RESET = lite<'resetPasswordWithCode'>({ method: 'POST', path: '/api/v1/password/reset' });

const OPTIONS: ClientOptions = { baseUrl: '', timeoutMs: 30_000 };

/** Signs in (the session cookie is set by the answer) and returns the signed-in user. */
export async function signIn(email: string, password: string): Promise<User> {
  await callRoute(OPTIONS, LOGIN, { body: { email, password } });
  return currentUser();
}

/** The signed-in user, or an ApiError (401 when the session is gone). */
export async function currentUser(): Promise<User> {
  return (await callRoute(OPTIONS, GET_ME)).data;
}

/** Whether the server mails password recovery codes (issue 16 item 11); false when it cannot say. */
export async function passwordRecoveryOffered(): Promise<boolean> {
  return (await callRoute(OPTIONS, SIGN_IN_OPTIONS).catch(() => null))?.data.password_recovery === true;
}

/**
 * Asks for a recovery code (the answer is the same whether or not the address is an account's): the
 * minutes the code stays valid, as the server says.
 */
export async function requestRecoveryCode(email: string): Promise<number> {
  const answer = await callRoute(OPTIONS, FORGOT, { body: { email } });
  return Math.round(answer.data.expires_in / 60);
}

/** Sets the new password with the mailed code (every session of the account ends), then signs in with it. */
export async function resetPasswordAndSignIn(email: string, code: string, password: string): Promise<User> {
  await callRoute(OPTIONS, RESET, { body: { email, code, password } });
  return signIn(email, password);
}
