import { expect, test } from '@playwright/test';
import { demo, sendContactMessage, signedInPage } from './helpers';

// An admin builds an automated menu and makes it a channel's entry point; a contact
// writing on that channel is greeted by it and their answer puts them in the chosen sector's queue.
test('an admin builds a menu and puts it in front of a channel; the contact answers and lands in the queue', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  const stamp = Date.now();
  // A channel of its own, so the demo channels other specs write on keep going straight to the queue.
  const created = await admin.request.post('/api/v1/channels', { form: { name: `Menu channel ${stamp}`, type: 'custom' } });
  expect(created.status()).toBe(201);
  const { data: channel, inbound_token: token } = (await created.json()) as { data: { uuid: string; name: string }; inbound_token: string };
  const sectors = ((await (await admin.request.get('/api/v1/sectors?_limit=0')).json()) as { data: { uuid: string; name: string }[] }).data;
  const sector = sectors[0]!;
  const menuName = `E2E menu ${stamp}`;
  let conversation = '';
  try {
    await admin.goto('/admin/settings/automated-menu');
    await admin.getByRole('button', { name: 'New menu' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New menu' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(menuName);
    await dialog.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello! How can we help?');
    await dialog.getByRole('textbox', { name: 'Invalid option message' }).fill('Please answer with one of the options.');
    const first = dialog.getByRole('group', { name: 'Answer 1' });
    await first.getByRole('textbox', { name: 'Description' }).fill(sector.name);
    await dialog.getByRole('button', { name: 'Add answer' }).click();
    const second = dialog.getByRole('group', { name: 'Answer 2' });
    await second.getByRole('textbox', { name: 'Option' }).fill('1');
    await second.getByRole('textbox', { name: 'Description' }).fill('Nothing, thanks');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Answers unique, each with an action.
    await expect(second.getByText('Answers must be unique')).toBeVisible();
    await expect(first.getByText('Choose an action for this answer')).toBeVisible();
    await second.getByRole('textbox', { name: 'Option' }).fill('2');
    await first.getByRole('textbox', { name: 'Action' }).click();
    await admin.getByRole('option', { name: 'Transfer to a sector' }).click();
    await first.getByRole('textbox', { name: 'Sector' }).click();
    await admin.getByRole('option', { name: sector.name, exact: true }).click();
    await second.getByRole('textbox', { name: 'Action' }).click();
    await admin.getByRole('option', { name: 'End the conversation' }).click();
    await second.getByRole('textbox', { name: 'Message to send (optional)' }).fill('Bye!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Menu created successfully')).toBeVisible();
    await expect(admin.getByRole('table', { name: 'Menus' }).getByRole('row').filter({ hasText: menuName })).toContainText('Enabled');

    // The channel's entry point becomes the menu, on the channel's settings page.
    await admin.getByRole('table', { name: 'Channels' }).getByRole('link', { name: channel.name }).click();
    await expect(admin.getByRole('heading', { name: channel.name })).toBeVisible();
    await admin.getByRole('textbox', { name: 'Entry point' }).click();
    await admin.getByRole('option', { name: menuName }).click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Channel edited successfully')).toBeVisible();

    const write = (id: string, content: string) =>
      sendContactMessage(admin.request, channel.uuid, token, {
        contact: { phone: `+55119${String(stamp).slice(-8)}`, name: 'Menu Contact' },
        message: { id: `e2e-menu-${stamp}-${id}`, content },
      });
    conversation = (await write('1', 'Hi')).conversation_uuid;
    const read = async () => {
      const res = await admin.request.get(`/api/v1/conversations/${conversation}`);
      expect(res.status(), await res.text()).toBe(200);
      return ((await res.json()) as { data: { state: string; sector: { uuid: string } | null } }).data;
    };
    expect((await read()).state).toBe('bot');
    const messages = (
      (await (await admin.request.get(`/api/v1/conversations/${conversation}/messages`)).json()) as { data: { message: string }[] }
    ).data;
    expect(messages.map((m) => m.message)).toContain(`Hello! How can we help?\n\n1 - ${sector.name}\n2 - Nothing, thanks`);
    expect((await write('2', '1')).conversation_uuid).toBe(conversation);
    await expect.poll(async () => (await read()).state).toBe('waiting');
    expect((await read()).sector?.uuid).toBe(sector.uuid);

    // A menu in front of a channel cannot be disabled.
    await admin.goto('/admin/settings/automated-menu');
    await admin.getByRole('button', { name: `Edit ${menuName}` }).click();
    await expect(admin.getByRole('dialog', { name: 'Edit menu' }).getByRole('switch', { name: 'Enabled' })).toBeDisabled();
  } finally {
    if (conversation)
      await admin.request.patch(`/api/v1/conversations/${conversation}`, { data: { state: 'closed', current_role: 'supervisor' } });
    expect((await admin.request.delete(`/api/v1/channels/${channel.uuid}`)).ok()).toBe(true);
  }
});
