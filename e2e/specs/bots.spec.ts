import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

// Spec 002 §2 settings/bots and bots/bot-editor/:id, §3 flow nodes, §5 flow rules, §8 'There is already a bot with this name'.
test('an admin builds a bot flow: the editor flags unconnected handles and repeated option keys, then saves it', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  const name = `E2E bot ${Date.now()}`;
  await admin.goto('/admin/settings/bots');
  await admin.getByRole('button', { name: 'New bot' }).click();
  await admin.getByRole('textbox', { name: 'Name' }).fill(name);
  await admin.getByRole('textbox', { name: 'Add a step' }).click();
  await admin.getByRole('option', { name: 'Options menu' }).click();
  await admin.getByRole('textbox', { name: 'Add a step' }).click();
  await admin.getByRole('option', { name: 'End' }).click();
  await admin.getByRole('button', { name: 'Save' }).click();

  const start = admin.getByRole('group', { name: 'Start start' });
  const menu = admin.getByRole('group', { name: /^Options menu options_/ });
  const end = admin.getByRole('group', { name: /^End end_/ });
  await expect(start.getByText('Connect this handle to a node')).toBeVisible();
  await expect(menu.getByText('Text is required')).toBeVisible();
  await expect(menu.getByText('The invalid option message is required')).toBeVisible();
  await expect(end.getByText('Text is required')).toBeVisible();

  const ids = await admin.getByRole('group').evaluateAll((groups) => groups.map((g) => g.getAttribute('aria-label') ?? ''));
  const menuId = ids.find((l) => l.startsWith('Options menu '))!.replace('Options menu ', '');
  const endId = ids.find((l) => l.startsWith('End '))!.replace('End ', '');
  await start.getByRole('textbox', { name: 'Goes to' }).click();
  await admin.getByRole('option', { name: new RegExp(`^${menuId} `) }).click();
  await menu.getByRole('textbox', { name: 'Text', exact: true }).fill('Hi! 1 for sales');
  await menu.getByRole('textbox', { name: 'Invalid option message' }).fill('Please answer 1');
  await menu.getByRole('button', { name: 'Add option' }).click();
  await menu.getByRole('textbox', { name: 'Option', exact: true }).nth(1).fill('1');
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(menu.getByText('Option keys must be unique')).toBeVisible();
  await menu.getByRole('textbox', { name: 'Option', exact: true }).nth(1).fill('2');
  for (const n of [0, 1]) {
    await menu.getByRole('textbox', { name: 'Goes to' }).nth(n).click();
    await admin.getByRole('option', { name: new RegExp(`^${endId} `) }).click();
  }
  await end.getByRole('textbox', { name: 'Text', exact: true }).fill('Bye!');
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Bot saved successfully')).toBeVisible();
  await expect(admin).toHaveURL(/\/admin\/settings\/bots\/bot-editor\/[0-9a-f-]{36}$/);

  await admin.goto('/admin/settings/bots');
  const row = admin.getByRole('table', { name: 'Bots' }).getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('3');
  // Same name again: the server's message.
  const again = await admin.request.post('/api/v1/bots', { data: { name: name.toUpperCase(), nodes: [{ id: 's', type: 'start', next: 'e' }, { id: 'e', type: 'end', text: 'x' }] } });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { error_message: string }).error_message).toBe('There is already a bot with this name');
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await admin.getByRole('dialog', { name: 'Delete bot' }).getByRole('button', { name: 'Delete' }).click();
  await expect(admin.getByText('Bot deleted successfully')).toBeVisible();
});
