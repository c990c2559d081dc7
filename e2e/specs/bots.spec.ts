import { expect, test } from '@playwright/test';
import { demo, sendContactMessage, signedInPage } from './helpers';

// Settings/bots and bots/bot-editor/:id, flow nodes, flow rules, 'There is already a bot with this name'.
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
  const again = await admin.request.post('/api/v1/bots', {
    data: {
      name: name.toUpperCase(),
      nodes: [
        { id: 's', type: 'start', next: 'e' },
        { id: 'e', type: 'end', text: 'x' },
      ],
    },
  });
  expect(again.status()).toBe(409);
  expect(((await again.json()) as { error_message: string }).error_message).toBe('There is already a bot with this name');
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await admin.getByRole('dialog', { name: 'Delete bot' }).getByRole('button', { name: 'Delete' }).click();
  await expect(admin.getByText('Bot deleted successfully')).toBeVisible();
});

// Flow nodes at work, channel entry points, 'Some channels depend on this bot': a
// bot in front of a channel greets the contact, asks, calls an HTTP service and answers with it, or
// hands the contact to a sector's queue, where an agent sees what the bot said.
test('a bot in front of a channel talks to contacts: options, a prompt, an HTTP call, an end and a transfer', async ({
  browser,
  baseURL,
}) => {
  const admin = await signedInPage(browser, demo('admin'));
  const stamp = Date.now();
  const created = await admin.request.post('/api/v1/channels', { form: { name: `Bot channel ${stamp}`, type: 'custom' } });
  expect(created.status()).toBe(201);
  const { data: channel, inbound_token: token } = (await created.json()) as { data: { uuid: string; name: string }; inbound_token: string };
  const sector = ((await (await admin.request.get('/api/v1/sectors?_limit=0')).json()) as { data: { uuid: string; name: string }[] })
    .data[0]!;
  const name = `Order bot ${stamp}`;
  const bot = await admin.request.post('/api/v1/bots', {
    data: {
      name,
      nodes: [
        { id: 'start', type: 'start', next: 'menu' },
        {
          id: 'menu',
          type: 'options',
          text: 'Hi {{contact.name}}! How can we help?',
          invalid_option_message: 'Please answer 1 or 2.',
          options: [
            { key: '1', label: 'Order status', next: 'ask' },
            { key: '2', label: 'A person', next: 'human' },
          ],
        },
        { id: 'ask', type: 'prompt', text: 'Your order number?', variable: 'order', next: 'check' },
        {
          id: 'check',
          type: 'http',
          method: 'GET',
          url: `${baseURL}/api/health`,
          error_text: 'Our system is down.',
          on_error: 'human',
          next: 'route',
        },
        {
          id: 'route',
          type: 'router',
          conditions: [{ expression: 'response.postgres == true && response.status == "ok"', next: 'done' }],
          next: 'human',
        },
        { id: 'done', type: 'end', text: 'Order {{order}} is on its way (system {{response.status}}). Bye!' },
        { id: 'human', type: 'transfer', text: 'Passing you to a person.', sector_uuid: sector.uuid },
      ],
    },
  });
  expect(bot.status()).toBe(201);
  const botId = ((await bot.json()) as { data: { uuid: string } }).data.uuid;
  const conversations: string[] = [];
  try {
    // The channel's entry point becomes the bot, on the channel's settings page.
    await admin.goto(`/admin/settings/workspace/channels/${channel.uuid}`);
    await expect(admin.getByRole('heading', { name: channel.name })).toBeVisible();
    await admin.getByRole('textbox', { name: 'Entry point' }).click();
    await admin.getByRole('option', { name }).click();
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Channel edited successfully')).toBeVisible();
    // A bot in front of a channel stays.
    await admin.goto('/admin/settings/bots');
    await admin
      .getByRole('table', { name: 'Bots' })
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: `Delete ${name}` })
      .click();
    await admin.getByRole('dialog', { name: 'Delete bot' }).getByRole('button', { name: 'Delete' }).click();
    await expect(admin.getByText('Some channels depend on this bot')).toBeVisible();

    const write = async (phone: string, id: string, content: string) => {
      const { conversation_uuid: uuid } = await sendContactMessage(admin.request, channel.uuid, token, {
        contact: { phone, name: 'Bia' },
        message: { id: `e2e-bot-${stamp}-${id}`, content },
      });
      if (!conversations.includes(uuid)) conversations.push(uuid);
      return uuid;
    };
    const said = async (conversation: string) =>
      (
        (await (await admin.request.get(`/api/v1/conversations/${conversation}/messages?_limit=50`)).json()) as {
          data: { message: string }[];
        }
      ).data.map((m) => m.message);
    const state = async (conversation: string) =>
      ((await (await admin.request.get(`/api/v1/conversations/${conversation}`)).json()) as { data: { state: string } }).data.state;

    const phone = `+55119${String(stamp).slice(-8)}`;
    const first = await write(phone, '1', 'Oi');
    await expect.poll(() => said(first)).toContain('Hi Bia! How can we help?\n\n1 - Order status\n2 - A person');
    expect(await state(first)).toBe('bot');
    await write(phone, '2', 'order status');
    await expect.poll(() => said(first)).toContain('Your order number?');
    await write(phone, '3', '4711');
    await expect.poll(() => said(first)).toContain('Order 4711 is on its way (system ok). Bye!');
    expect(await state(first)).toBe('closed');

    const other = `+55118${String(stamp).slice(-8)}`;
    const second = await write(other, '4', 'Hello');
    await expect.poll(() => said(second)).toContain('Hi Bia! How can we help?\n\n1 - Order status\n2 - A person');
    await write(other, '5', '2');
    await expect.poll(() => state(second)).toBe('waiting');
    expect(await said(second)).toContain('Passing you to a person.');
  } finally {
    for (const c of conversations)
      await admin.request.patch(`/api/v1/conversations/${c}`, { data: { state: 'closed', current_role: 'supervisor' } });
    expect((await admin.request.delete(`/api/v1/channels/${channel.uuid}`)).ok()).toBe(true);
    expect((await admin.request.delete(`/api/v1/bots/${botId}`)).ok()).toBe(true);
  }
});
