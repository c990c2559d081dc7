import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

// An agent pauses with a reason and unpauses by hand; supervisors see the state live
// Update-user in tenant_{uuid}_metrics: the title carries the waiting count.
test('an agent pauses and unpauses; the supervisor sees it live', async ({ browser }) => {
  const agent = await signedInPage(browser, demo('agent2'));
  await expect(agent).toHaveURL(/\/app$/);
  // The demo seed leaves contacts waiting in the agents' sectors.
  await expect(agent).toHaveTitle(/^\(\d+\) Atende$/);

  const supervisor = await signedInPage(browser, demo('supervisor'));
  const row = supervisor.getByTestId(`agent-row-${demo('agent2')}`);
  await expect(row.getByText('Online')).toBeVisible();

  await agent.getByRole('button', { name: 'Online' }).click();
  await agent.getByRole('menuitem', { name: 'Lunch' }).click();
  await expect(agent.getByRole('button', { name: 'Paused: Lunch' })).toBeVisible();
  await expect(row.getByText('Paused')).toBeVisible();
  await expect(row.getByText('Lunch')).toBeVisible();

  await agent.getByRole('button', { name: 'Paused: Lunch' }).click();
  await agent.getByRole('menuitem', { name: 'Unpause' }).click();
  await expect(agent.getByRole('button', { name: 'Online' })).toBeVisible();
  await expect(row.getByText('Online')).toBeVisible();
  await agent.context().close();
  await supervisor.context().close();
});
