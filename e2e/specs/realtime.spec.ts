import { expect, test, type WebSocketRoute } from '@playwright/test';
import { demo, signIn, signedInPage } from './helpers';

// A supervisor can end an agent's session; the live event logs the agent's browser
// out with the persistent toast 'You were disconnected by a supervisor'.
test("a supervisor's forced logout reaches the agent's browser", async ({ browser }) => {
  const agent = await signedInPage(browser, demo('agent'));
  await expect(agent).toHaveURL(/\/app$/);
  await expect(agent.getByText('Connected')).toBeVisible();

  const supervisor = await signedInPage(browser, demo('supervisor'));
  const row = supervisor.getByTestId(`agent-row-${demo('agent')}`);
  await expect(row.getByText('Online')).toBeVisible();
  await row.getByRole('button', { name: 'Disconnect' }).click();
  await supervisor.getByRole('dialog').getByRole('button', { name: 'Disconnect' }).click();

  await expect(agent.getByText('You were disconnected by a supervisor')).toBeVisible();
  await expect(agent).toHaveURL(/\/login/);
  await expect(agent.getByRole('heading', { name: 'Sign in to Atende' })).toBeVisible();
  // Ended by the live event, not by a failed call: no 'Credenciais inválidas' on top.
  await expect(agent.getByText('Credenciais inválidas')).toHaveCount(0);
  // The supervisor's table updates live.
  await expect(row.getByText('Offline')).toBeVisible();
  // The agent's old session is gone for good.
  await agent.goto('/app');
  await expect(agent).toHaveURL(/\/login/);
  await agent.context().close();
  await supervisor.context().close();
});

// A tenant admin toggles a feature flag; the guarded route appears and disappears.
test('a tenant admin toggles a feature flag and the guarded item follows', async ({ browser }) => {
  const tenants = await signedInPage(browser, demo('tenants'));
  await expect(tenants).toHaveURL(/\/admin\/tenants$/);
  await tenants.getByRole('link', { name: 'Demo' }).click();
  const flag = tenants.getByRole('switch', { name: 'Omnichannel dashboard' });
  await expect(flag).toBeChecked();

  const supervisor = await signedInPage(browser, demo('supervisor'));
  await expect(supervisor.getByRole('link', { name: /Omnichannel panel/ })).toBeVisible();

  await flag.click({ force: true });
  await expect(tenants.getByText('Feature updated')).toBeVisible();
  await expect(flag).not.toBeChecked();

  await supervisor.reload();
  await expect(supervisor.getByRole('heading', { name: 'Agent availability' })).toBeVisible();
  await expect(supervisor.getByRole('link', { name: /Omnichannel panel/ })).toHaveCount(0);
  await supervisor.goto('/admin/dashboard-omnichannel');
  await expect(supervisor.getByText('Funcionalidade não ativada')).toBeVisible();

  await flag.click({ force: true });
  await expect(flag).toBeChecked();
  await supervisor.goto('/admin');
  await expect(supervisor.getByRole('link', { name: /Omnichannel panel/ })).toBeVisible();
  await tenants.context().close();
  await supervisor.context().close();
});

// Connection states connected, connecting ('Trying to reconnect') and disconnected
// ('Try to reconnect' button; the workstation shows 'Falha na conexão').
test('the connection states follow the realtime socket', async ({ page }) => {
  let socket: WebSocketRoute | undefined;
  await page.routeWebSocket(/\/socket\//, (ws) => {
    ws.connectToServer();
    socket = ws;
  });
  await signIn(page, demo('agent2'));
  await expect(page).toHaveURL(/\/app$/);
  await expect(page.getByText('Connected')).toBeVisible();

  // The connection drops: socket.io reconnects by itself.
  await socket?.close();
  await expect(page.getByText('Trying to reconnect')).toBeVisible();
  await expect(page.getByText('Connected')).toBeVisible();

  // The server ends the connection (socket.io DISCONNECT packet): only the user brings it back.
  socket?.send('41');
  await expect(page.getByRole('heading', { name: 'Falha na conexão' })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Try to reconnect' }).click();
  await expect(page.getByText('Connected')).toBeVisible();
  await expect(page.getByText('Start messaging! Select a chat and talk to the customers')).toBeVisible();
});
