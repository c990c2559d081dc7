import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

// "Forgot password?" on the sign-in page when the server sends mail (the e2e stack
// points SMTP_URL at the demo mail provider, whose mails the control port lists at GET /api/mails).
// A user asks for a code, reads it in the mail, sets a new password and is signed in; a session they
// had open elsewhere has ended.
const CONTROL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 3}`;

test('a user recovers a forgotten password with the code mailed to them and is signed in', async ({ browser, page, request }) => {
  // A user of their own, so no other spec's demo login changes.
  const admin = await signedInPage(browser, demo('admin'));
  const email = `esquecido${Date.now() % 1_000_000}@demo.atende.dev`;
  const created = await admin.request.post('/api/v1/users', {
    data: { username: 'Agente Esquecido', email, password: 'original123', roles: ['agent'] },
  });
  expect(created.status()).toBe(201);
  // Signed in somewhere else too: that session ends with the new password.
  const elsewhere = await browser.newContext();
  expect((await elsewhere.request.post('/api/v1/login', { form: { email, password: 'original123' } })).ok()).toBe(true);

  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('status')).toContainText(`If ${email} belongs to an account, a 6-digit code was sent to it.`);

  let code = '';
  await expect(async () => {
    const mails = (await (await request.get(`${CONTROL}/api/mails`)).json()) as { to: string[]; text: string }[];
    const mail = mails.findLast((m) => m.to.includes(email));
    expect(mail).toBeDefined();
    code = /\b(\d{6})\b/.exec(mail!.text)![1]!;
  }).toPass({ timeout: 15_000 });

  // A wrong code first, then a password the rules refuse, then the right ones.
  await page.getByLabel('Code').fill(code === '000000' ? '000001' : '000000');
  await page.getByLabel('New password', { exact: true }).fill('novasenha1');
  await page.getByLabel('Confirm the new password').fill('novasenha1');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The code is wrong or has expired');
  await page.getByLabel('Code').fill(code);
  await page.getByLabel('New password', { exact: true }).fill('semnumero');
  await page.getByLabel('Confirm the new password').fill('semnumero');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByText('Password must contain at least one number')).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('novasenha1');
  await page.getByLabel('Confirm the new password').fill('novasenha1');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page).toHaveURL(/\/app/);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();

  expect((await elsewhere.request.get('/api/v1/users/me')).status()).toBe(401);
  await elsewhere.close();
  // The old password no longer works; the new one does.
  expect((await request.post('/api/v1/login', { form: { email, password: 'original123' } })).status()).toBe(401);
  expect((await request.post('/api/v1/login', { form: { email, password: 'novasenha1' } })).ok()).toBe(true);
});
