import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

// Spec 002 §2, §3, §7: an admin gives another system an API token, which works as a bearer until revoked.
test('an admin creates an API token shown once, another system uses it, and revoking it stops it', async ({ browser, playwright, baseURL }) => {
  const admin = await signedInPage(browser, demo('admin'));
  await admin.goto('/admin/settings/integrations');
  const name = `E2E CRM ${Date.now()}`;
  await admin.getByRole('textbox', { name: 'Client name' }).fill(name);
  await admin.getByRole('button', { name: 'Create token' }).click();
  const token = (await admin.getByTestId('new-api-token').innerText()).trim();
  expect(token).toMatch(/^atd_/);
  await admin.getByRole('dialog', { name: 'Your new token' }).getByRole('button', { name: 'Close' }).click();
  await expect(admin.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: name })).toBeVisible();

  // The other system: no cookie, only the bearer.
  const crm = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${token}` } });
  const me = await crm.get('/api/v1/users/me');
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { data: { email: string } }).data.email).toBe(demo('admin'));

  await admin.getByRole('button', { name: `Revoke ${name}` }).click();
  await admin.getByRole('dialog', { name: 'Revoke token' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(admin.getByText('Token revoked')).toBeVisible();
  expect((await crm.get('/api/v1/users/me')).status()).toBe(401);
  await crm.dispose();

  // The voice-phone URL must be https.
  await admin.getByRole('textbox', { name: 'Voice phone URL' }).fill('http://phone.example.com');
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('The URL must start with https://')).toBeVisible();
});
