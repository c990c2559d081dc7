import { expect, test } from '@playwright/test';
import { demo, signedInPage, signIn } from './helpers';

// The platform's tenant_admin creates a customer with its plan and first admin on the
// tenants screen; that admin signs in to the new tenant and sees the plan read-only.
test('a tenant admin creates a customer with its first admin, who signs in to it', async ({ browser }) => {
  const operator = await signedInPage(browser, demo('tenants'));
  const suffix = Date.now() % 100_000;
  await operator.goto('/admin/tenants');
  await operator.getByRole('button', { name: 'New tenant' }).click();
  const modal = operator.getByRole('dialog', { name: 'New tenant' });
  await modal.getByRole('textbox', { name: 'Name' }).first().fill(`Loja ${suffix}`);
  await modal.getByLabel('Admin name').fill('Paula Gerente');
  await modal.getByRole('textbox', { name: 'E-mail' }).fill(`paula${suffix}@loja.test`);
  await modal.getByLabel('Password').fill('curta');
  await modal.getByRole('button', { name: 'Create tenant' }).click();
  // The password rule is said next to the field; nothing is created.
  await expect(modal.locator('.mantine-InputWrapper-error')).toHaveCount(1);
  await modal.getByLabel('Password').fill('senha-forte-1');
  await modal.getByRole('button', { name: 'Create tenant' }).click();
  await expect(operator.getByText('Tenant created')).toBeVisible();
  await expect(operator.getByRole('table', { name: 'Tenants' }).getByRole('link', { name: `Loja ${suffix}` })).toBeVisible();

  // The operator edits the customer's profile: a bad country code is said on its field, nothing saved.
  await operator
    .getByRole('table', { name: 'Tenants' })
    .getByRole('link', { name: `Loja ${suffix}` })
    .click();
  const profile = operator.getByRole('form', { name: 'Tenant profile' });
  await profile.getByRole('textbox', { name: 'Default country code' }).fill('55');
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile.locator('.mantine-InputWrapper-error')).toHaveText('Invalid country code');
  await profile.getByRole('textbox', { name: 'Default country code' }).fill('+351');
  await profile.getByRole('textbox', { name: 'Agent slots' }).fill('4');
  await profile.getByRole('textbox', { name: 'Name' }).fill(`Loja ${suffix} Lisboa`);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(operator.getByText('Tenant saved')).toBeVisible();
  await expect(operator.getByRole('heading', { name: `Loja ${suffix} Lisboa` })).toBeVisible();
  await operator.reload();
  await expect(profile.getByRole('textbox', { name: 'Default country code' })).toHaveValue('+351');
  await expect(profile.getByRole('textbox', { name: 'Agent slots' })).toHaveValue('4');
  await operator.context().close();

  const context = await browser.newContext();
  const admin = await context.newPage();
  await signIn(admin, `paula${suffix}@loja.test`, 'senha-forte-1');
  await expect(admin).toHaveURL(/\/admin/);
  const me = (await (await admin.request.get('/api/v1/tenants/me')).json()) as { data: { name: string; uuid: string } };
  expect(me.data.name).toBe(`Loja ${suffix} Lisboa`);
  await admin.goto(`/admin/tenants/${me.data.uuid}`);
  await expect(admin.getByText("The plan's features and agent slots are changed by the platform's administrators")).toBeVisible();
  await expect(admin.getByRole('group', { name: 'Features' }).getByRole('switch').first()).toBeDisabled();
  // Their own tenant's name is theirs to change; the agent slots are the plan's.
  const own = admin.getByRole('form', { name: 'Tenant profile' });
  await expect(own.getByRole('textbox', { name: 'Agent slots' })).toBeDisabled();
  await own.getByRole('textbox', { name: 'Name' }).fill(`Loja ${suffix} Porto`);
  await own.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Tenant saved')).toBeVisible();
  await expect(admin.getByRole('heading', { name: `Loja ${suffix} Porto` })).toBeVisible();
  await context.close();
});
