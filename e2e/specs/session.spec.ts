import { expect, test } from '@playwright/test';
import { demo, openUserMenuItem, screenshot, signIn, signedInPage } from './helpers';

// /login sends agents to /app and everybody else to /admin.
test('an agent signs in and lands on the workstation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in to Atende' })).toBeVisible();
  await screenshot(page, 'login');
  await signIn(page, demo('agent'));
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByText('Start messaging! Select a chat and talk to the customers')).toBeVisible();
  await expect(page.getByText('Connected')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Agent panel' });
  await expect(nav.getByRole('link', { name: /Active chats/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'History' })).toBeVisible();
  // Campaigns only for campaign managers.
  await expect(nav.getByRole('link', { name: 'Campaigns' })).toHaveCount(0);
  await screenshot(page, 'app');

  await nav.getByRole('link', { name: 'History' }).click();
  await expect(page).toHaveURL(/\/app\/chat-history$/);
  // Empty on a fresh stack; other specs may already have finished chats of this agent today.
  await expect(page.getByText("You don't have finished chats yet").or(page.getByRole('table', { name: 'Chat history' }))).toBeVisible();
  // Signed in, /login goes straight back to the panel.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/app$/);
});

test('a supervisor signs in and lands in the admin area', async ({ page }) => {
  await signIn(page, demo('supervisor'));
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Agent availability' })).toBeVisible();
  await expect(page.getByTestId('admin-footer')).toHaveText('Demo > Atendimento');
  const nav = page.getByRole('navigation', { name: 'Supervisor panel' });
  for (const item of ['Dashboard', 'Reports', 'Contacts', 'Settings']) await expect(nav.getByRole('link', { name: item })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Tenants' })).toHaveCount(0);
  await screenshot(page, 'admin');
});

// The campaigns section needs campaign_manager plus outbound_campaign; the
// rest of the admin area stays closed to a campaign manager.
test('a campaign manager lands on the campaigns section and nothing else', async ({ page }) => {
  await signIn(page, demo('campaigns'));
  await expect(page).toHaveURL(/\/admin\/campaigns$/);
  const nav = page.getByRole('navigation', { name: 'Supervisor panel' });
  await expect(nav.getByRole('link', { name: 'Campaigns' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Reports' })).toHaveCount(0);
  await page.goto('/admin/reports');
  await expect(page.getByText('Você não tem permissão para acessar essa página')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/campaigns$/);
});

// An admin's first access goes to first steps while the feature is not completed.
test('an admin signs in, lands on first steps in the admin area and can complete them', async ({ page }) => {
  await signIn(page, demo('admin'));
  await expect(page).toHaveURL(/\/admin\/first-steps$/);
  // The first-steps red dot, for admins while not completed.
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'First steps' }).getByRole('img', { name: 'Not completed' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Mark as completed' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'First steps completed' })).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Agent availability' })).toBeVisible();
  await page.getByRole('button', { name: 'User menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'First steps' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Not completed' })).toHaveCount(0);
});

test('a wrong password shows the error and stays on the login page', async ({ page }) => {
  await signIn(page, demo('agent'), 'wrong-password1');
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expect(page).toHaveURL(/\/login/);
});

// A role mismatch shows the permission toast and redirects to /.
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
  await openUserMenuItem(page, 'Logout');
  await expect(page).toHaveURL(/\/login/);
  await page.goto('/app');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('heading', { name: 'Sign in to Atende' })).toBeVisible();
});

// /ssoload loads the user and goes to ?page=; without a session it falls back to
// /login carrying max_agents_reached, which the login page shows.
test('ssoload goes to the page asked for, or to the login page with the max-users notice', async ({ page, browser }) => {
  await page.goto('/ssoload?max_agents_reached=true');
  await expect(page).toHaveURL(/\/login\?max_agents_reached=true$/);
  await expect(page.getByText('The maximum number of users signed in was reached. Try again later.')).toBeVisible();

  const agent = await signedInPage(browser, demo('agent2'));
  await agent.goto('/ssoload?page=/app/chat-history');
  await expect(agent).toHaveURL(/\/app\/chat-history$/);
  await agent.context().close();
});

// GET /sso/domain_switch/jwt: a signed-in user moves to another domain
// of the deployment (here localhost next to 127.0.0.1: the cookie does not follow) through /ssoload.
test('a domain switch token signs the same user in on another domain, once', async ({ browser }) => {
  const agent = await signedInPage(browser, demo('agent2'));
  const res = await agent.request.get('/sso/domain_switch/jwt?page=/app/chat-history');
  expect(res.ok()).toBe(true);
  const { ssoload_path } = ((await res.json()) as { data: { ssoload_path: string } }).data;
  const other = `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}`;
  const elsewhere = await browser.newContext({ locale: 'en-US' });
  const page = await elsewhere.newPage();
  await page.goto(`${other}${ssoload_path}`);
  await expect(page).toHaveURL(`${other}/app/chat-history`);
  const me = (await (await page.request.get(`${other}/api/v1/users/me`)).json()) as { data: { email: string } };
  expect(me.data.email).toBe(demo('agent2'));
  // Used: the same link in a fresh browser goes to the sign-in page.
  const again = await (await browser.newContext({ locale: 'en-US' })).newPage();
  await again.goto(`${other}${ssoload_path}`);
  await expect(again).toHaveURL(/\/login/);
  await elsewhere.close();
  await again.context().close();
  await agent.context().close();
});

test('the interface is in Portuguese when the browser language is pt-BR', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'pt-BR' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Entrar no Atende' })).toBeVisible();
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Obrigatório').first()).toBeVisible();
  await page.getByLabel('E-mail').fill(demo('agent'));
  await page.getByLabel('Senha', { exact: true }).fill('senha-errada1');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toHaveText('E-mail ou senha inválidos');
  await page.getByLabel('Senha', { exact: true }).fill('atende123');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByText('Comece a conversar! Selecione um atendimento e fale com os clientes')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Painel do agente' }).getByRole('link', { name: 'Histórico' })).toBeVisible();
  await expect(page.getByText('Conectado')).toBeVisible();
  await context.close();
});
