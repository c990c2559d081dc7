import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

// An admin gives another system an API token, which works as a bearer until revoked.
test('an admin creates an API token shown once, another system uses it, and revoking it stops it', async ({
  browser,
  playwright,
  baseURL,
}) => {
  const admin = await signedInPage(browser, demo('admin'));
  await admin.goto('/admin/settings/integrations');
  const name = `E2E CRM ${Date.now()}`;
  await admin.getByRole('textbox', { name: 'Client name' }).fill(name);
  // A token lives the install's default (90 days) unless the admin picks another lifetime.
  await expect(admin.getByRole('textbox', { name: 'Expires in' })).toHaveValue('90 days');
  await admin.getByRole('textbox', { name: 'Expires in' }).click();
  await admin.getByRole('option', { name: '7 days', exact: true }).click();
  await admin.getByRole('button', { name: 'Create token' }).click();
  const token = (await admin.getByTestId('new-api-token').innerText()).trim();
  expect(token).toMatch(/^atd_/);
  await admin.getByRole('dialog', { name: 'Your new token' }).getByRole('button', { name: 'Close' }).click();
  const row = admin.getByRole('table', { name: 'API tokens' }).getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText(new Date(Date.now() + 7 * 86_400_000).toLocaleDateString('en-US'));

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

// The voice-phone URL an admin sets becomes the 350x555 phone of the agent panel header.
test('an admin turns the voice phone on; agents get it in their header, and it goes away when turned off', async ({ browser, baseURL }) => {
  const admin = await signedInPage(browser, demo('admin'));
  // The app's own health answer stands in for the provider's page (http is allowed for local addresses only).
  const phoneUrl = `${baseURL}/api/health`;
  try {
    await admin.goto('/admin/settings/integrations');
    await admin.getByRole('textbox', { name: 'Voice phone URL' }).fill(phoneUrl);
    await admin.getByRole('switch', { name: 'Voice phone' }).check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Integrations saved')).toBeVisible();

    const agent = await signedInPage(browser, demo('agent'));
    // On a 1280×720 screen the whole phone is on screen.
    await agent.setViewportSize({ width: 1280, height: 720 });
    await agent.goto('/app');
    const button = agent.getByRole('button', { name: 'Voice phone' });
    await button.click();
    const frame = agent.locator('iframe[title="Voice phone"]');
    await expect(frame).toBeVisible();
    await expect(frame).toBeInViewport({ ratio: 1 });
    await expect(frame).toHaveAttribute('width', '350');
    await expect(frame).toHaveAttribute('height', '555');
    await expect(agent.frameLocator('iframe[title="Voice phone"]').locator('body')).toContainText('"status":"ok"');
    // Closing the dropdown keeps the phone loaded (a call goes on); opening shows the same one.
    await button.click();
    await expect(frame).toBeHidden();
    await expect(agent.locator('iframe[title="Voice phone"]')).toHaveCount(1);
    await button.click();
    await expect(frame).toBeVisible();
    await agent.context().close();
  } finally {
    const off = await admin.request.put('/api/v1/workspaces/me/integrations', { data: { voice_phone: { enabled: false, url: null } } });
    expect(off.ok()).toBe(true);
  }
  const later = await signedInPage(browser, demo('agent'));
  await later.goto('/app');
  await expect(later.getByRole('button', { name: 'Phonebook' })).toBeVisible();
  await expect(later.getByRole('button', { name: 'Voice phone' })).toHaveCount(0);
});
