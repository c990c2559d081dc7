import { expect, test } from '@playwright/test';
import { demo, screenshot, signIn, signedInPage } from './helpers';

// spec 000 §2: /login sends agents to /app and everybody else to /admin.
test('an agent signs in and lands on the workstation', async ({ page }) => {
  await page.goto('/login');
  await screenshot(page, 'login');
  await signIn(page, demo('agent'));
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByText('Start messaging! Select a chat and talk to the customers')).toBeVisible();
  await expect(page.getByText('Connected')).toBeVisible();
  await screenshot(page, 'app');
});

test('an admin signs in and lands in the admin area', async ({ page }) => {
  await signIn(page, demo('supervisor'));
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Agent availability' })).toBeVisible();
  await expect(page.getByTestId('admin-footer')).toHaveText('Demo > Atendimento');
  await screenshot(page, 'admin');
  // An admin's first access goes to first steps (spec 000 §2).
  const admin = await signedInPage(page.context().browser()!, demo('admin'));
  await expect(admin).toHaveURL(/\/admin(\/first-steps)?$/);
});

test('a wrong password shows the error and stays on the login page', async ({ page }) => {
  await signIn(page, demo('agent'), 'wrong-password');
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expect(page).toHaveURL(/\/login/);
});

// spec 000 §2: a role mismatch shows the permission toast and redirects to /.
test('an agent opening /admin gets the permission toast and is sent back', async ({ page }) => {
  await signIn(page, demo('agent'));
  await expect(page).toHaveURL(/\/app$/);
  await page.goto('/admin');
  await expect(page.getByText('Você não tem permissão para acessar essa página')).toBeVisible();
  await expect(page).toHaveURL(/\/app$/);
});

test('logout ends the session: /app then needs signing in again', async ({ page }) => {
  await signIn(page, demo('agent2'));
  await expect(page).toHaveURL(/\/app$/);
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/app');
  await expect(page).toHaveURL(/\/login/);
});

test('the interface is in Portuguese when the browser language is pt-BR', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'pt-BR' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Entrar no Atende' })).toBeVisible();
  await page.getByLabel('E-mail').fill(demo('agent'));
  await page.getByLabel('Senha', { exact: true }).fill('atende123');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Comece a conversar! Selecione um atendimento e fale com os clientes')).toBeVisible();
  await context.close();
});
