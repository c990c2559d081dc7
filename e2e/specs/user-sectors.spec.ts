import { expect, test } from '@playwright/test';
import { demo, signIn } from './helpers';

// Agents belong to sectors, chosen in the user form (PUT /api/v1/users/:id/sectors).
test('an admin puts a new agent in a sector from the user form, and changes it when editing', async ({ page }) => {
  const suffix = String(Date.now()).slice(-6);
  const name = `Agente Setor ${'abcdefghij'[Number(suffix[5])]}${'abcdefghij'[Number(suffix[4])]}`;
  const email = `setor.${suffix}@demo.atende.dev`;
  await signIn(page, demo('admin'));
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin/settings/users');
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await expect(dialog.getByText('An agent with no sector serves every sector.')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel(/^Password/).fill('segredo123');
  await dialog.getByRole('checkbox', { name: 'Agent' }).check();
  await dialog.getByRole('textbox', { name: 'Sectors' }).click();
  await page.getByRole('option', { name: 'Sales' }).click();
  // The list stays open for more choices: closed by leaving the field.
  await dialog.getByLabel('Name').click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  const users = (await (await page.request.get('/api/v1/users')).json()) as { data: { uuid: string; email: string }[] };
  const created = users.data.find((u) => u.email === email)!;
  const sectors = (await (await page.request.get('/api/v1/sectors?_limit=0')).json()) as { data: { uuid: string; name: string }[] };
  const uuidOf = (n: string) => sectors.data.find((s) => s.name === n)!.uuid;
  const saved = async () =>
    ((await (await page.request.get(`/api/v1/users/${created.uuid}/sectors`)).json()) as { data: { sector_uuids: string[] } }).data
      .sector_uuids;
  expect(await saved()).toEqual([uuidOf('Sales')]);

  // Editing shows the sector; Support is added.
  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await expect(edit.getByText('Sales', { exact: true })).toBeVisible();
  await edit.getByRole('textbox', { name: 'Sectors' }).click();
  await page.getByRole('option', { name: 'Support' }).click();
  await edit.getByLabel('Name').click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User updated successfully')).toBeVisible();
  expect((await saved()).sort()).toEqual([uuidOf('Sales'), uuidOf('Support')].sort());

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully')).toBeVisible();
});
