import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

/**
 * Issue 15's channels admin screen: every channel with its type, availability and entry point;
 * a channel of any type created with only what that type needs; the address to give the provider.
 */
test('an admin lists channels, creates an API and a live chat channel, and switches one off', async ({ browser }) => {
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
  await page.context().close();
});
