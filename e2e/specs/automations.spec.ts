import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';

// An admin builds an automation from a timer, conditions and operations (the worker
// applying it is covered by apps/api/src/modules/automations/automations.test.ts).
test('an admin builds an automation, with a condition and ordered operations, and turns it off', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  const name = `E2E auto ${Date.now()}`;
  const sector = ((await (await admin.request.get('/api/v1/sectors?_limit=0')).json()) as { data: { name: string }[] }).data[0]!.name;
  await admin.goto('/admin/settings/automations');
  await admin.getByRole('button', { name: 'New automation' }).click();
  const create = admin.getByRole('dialog', { name: 'New automation' });
  await create.getByRole('textbox', { name: 'Name' }).fill(name);
  await create.getByRole('textbox', { name: 'Minutes' }).fill('0');
  await expect(create.getByText('At least 1 minute')).toBeVisible();
  await expect(create.getByRole('button', { name: 'Create' })).toBeDisabled();
  await create.getByRole('textbox', { name: 'Minutes' }).fill('45');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(admin.getByText('Automation created successfully')).toBeVisible();

  const editor = admin.getByRole('dialog', { name });
  await expect(editor.getByText('No operations yet: the automation does nothing until it has one')).toBeVisible();
  await editor.getByRole('textbox', { name: 'Value' }).click();
  await admin.getByRole('option', { name: sector, exact: true }).click();
  await editor.getByRole('button', { name: 'Add condition' }).click();
  await expect(editor.getByRole('table', { name: 'Conditions' })).toContainText(`Sector is ${sector}`);
  await editor.getByRole('textbox', { name: 'Operation' }).click();
  await admin.getByRole('option', { name: 'Send a message' }).click();
  await editor.getByRole('textbox', { name: 'Message' }).fill('Are you still there?');
  await editor.getByRole('button', { name: 'Add operation' }).click();
  await editor.getByRole('textbox', { name: 'Operation' }).click();
  await admin.getByRole('option', { name: 'Close the conversation' }).click();
  await editor.getByRole('button', { name: 'Add operation' }).click();
  await expect(editor.getByRole('table', { name: 'Operations' })).toContainText(
    '1. Send a message: Are you still there?2. Close the conversation',
  );
  // Nothing may follow closing the conversation: the server says so.
  await editor.getByRole('textbox', { name: 'Operation' }).click();
  await admin.getByRole('option', { name: 'Return to the queue' }).click();
  await editor.getByRole('button', { name: 'Add operation' }).click();
  await expect(admin.getByText('Nothing can follow closing the conversation')).toBeVisible();
  await editor.getByRole('button', { name: 'Close' }).first().click();

  const row = admin.getByRole('table', { name: 'Automations' }).getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('The contact has not answered the agent for 45 min');
  await expect(row).toContainText('Send a message → Close the conversation');
  await row.getByRole('switch', { name: 'Enabled' }).click({ force: true });
  await expect(row.getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await admin.getByRole('dialog', { name: 'Delete automation' }).getByRole('button', { name: 'Delete' }).click();
  await expect(admin.getByText('Automation deleted successfully')).toBeVisible();
  await expect(row).toHaveCount(0);
});
