import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

/**
 * The channels admin screen: every channel with its type, availability and entry point;
 * a channel of any type created with only what that type needs; the address to give the provider.
 */
test('an admin lists channels, creates an API, a live chat and a 360dialog channel, switches one off and moves one to the Cloud API', async ({
  browser,
}) => {
  const page = await signedInPage(browser, demo('admin'));
  await page.goto('/admin/settings/workspace');
  const table = page.getByRole('table', { name: 'Channels' });
  // The demo's WhatsApp channel, named by its type, never the raw type.
  await expect(table.getByRole('row', { name: /WhatsApp \(360dialog\)/ }).first()).toBeVisible();
  await expect(table.getByText('whatsapp_360dialog')).toHaveCount(0);

  const suffix = Date.now() % 100_000;
  await page.getByRole('button', { name: 'New channel' }).click();
  const modal = page.getByRole('dialog', { name: 'New channel' });
  await modal.getByRole('textbox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'WhatsApp Cloud API' }).click();
  await modal.getByRole('button', { name: 'Create channel' }).click();
  // Only what the type needs, each required one said before anything is sent.
  await expect(modal.getByText('Required')).toHaveCount(6);
  await modal.getByRole('textbox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'API channel' }).click();
  await expect(modal.getByLabel('Access token')).toHaveCount(0);
  await modal.getByRole('textbox', { name: 'Name' }).fill(`Sistema ${suffix}`);
  await modal.getByRole('textbox', { name: 'Delivery address' }).fill('http://10.0.0.5/hook');
  await modal.getByRole('button', { name: 'Create channel' }).click();
  // A private address is refused with its reason, and nothing is created.
  await expect(modal.getByText(/private network|not allowed/i).first()).toBeVisible();
  await modal.getByRole('textbox', { name: 'Delivery address' }).fill('');
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText(`The channel Sistema ${suffix} was created.`)).toBeVisible();
  await expect(modal.getByText(/\/api\/v1\/channels\/droz\/.+\/messages/)).toBeVisible();
  await expect(modal.getByText('Inbound token')).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).last().click();

  const row = table.getByRole('row', { name: new RegExp(`Sistema ${suffix}`) });
  await expect(row).toContainText('API channel');
  await expect(row.getByText(/^(Online|Active|Paused)$/)).toBeVisible();
  await row.getByRole('switch', { name: `Sistema ${suffix} enabled` }).click({ force: true });
  await expect(page.getByText('Channel disabled')).toBeVisible();
  await expect(row.getByText('Offline', { exact: true })).toBeVisible();

  // A live chat channel is created here too, then set up on its own screen.
  await page.getByRole('button', { name: 'New channel' }).click();
  await modal.getByRole('textbox', { name: 'Name' }).fill(`Site ${suffix}`);
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await modal.getByRole('button', { name: 'Open channel settings' }).click();
  await expect(page).toHaveURL(/\/admin\/settings\/workspace\/channels\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: `Site ${suffix}` })).toBeVisible();

  // A 360dialog channel starts on the on-premise API; its settings move it to the Cloud API.
  await page.goto('/admin/settings/workspace');
  await page.getByRole('button', { name: 'New channel' }).click();
  await modal.getByRole('textbox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'WhatsApp (360dialog)' }).click();
  await modal.getByRole('textbox', { name: 'Name' }).fill(`Zap ${suffix}`);
  await modal.getByLabel('API key').fill('d360-key');
  await modal.getByRole('button', { name: 'Create channel' }).click();
  await expect(modal.getByText('Webhook secret')).toBeVisible();
  await modal.getByRole('button', { name: 'Open channel settings' }).click();
  await page.getByRole('button', { name: 'Move to the Cloud API' }).click();
  await expect(page.getByText('The channel now uses the Cloud API')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Move to the Cloud API' })).toHaveCount(0);
  await page.context().close();
});
