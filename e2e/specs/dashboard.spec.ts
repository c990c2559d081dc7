import { expect, test } from '@playwright/test';
import { demo, demoApiChannel, sendContactMessage, signedInPage, takeConversation } from './helpers';

// The admin dashboard's figures and open conversations follow what happens in the
// workspace without a reload; the omnichannel panel shows each sector against its SLA.
const CHANNEL_TOKEN = 'demo-api-channel-token';

test('a supervisor watches a new conversation arrive on the dashboard and leave it when finished', async ({ browser }) => {
  const page = await signedInPage(browser, demo('supervisor'));
  await page.goto('/admin');
  const newSessions = page.getByTestId('stat-new_sessions');
  await expect(newSessions).toContainText(/\d+/);
  await expect(page.getByTestId('stat-avg_session_time')).toContainText(/\d{2}:\d{2}:\d{2}/);
  const before = Number((await newSessions.innerText()).match(/(\d+)\s*$/)![1]);

  const channel = await demoApiChannel(page.request);
  const name = `Dashboard ${Date.now()}`;
  const phone = `+55119${String(Date.now()).slice(-8)}`;
  const sent = await page.request.post(`/api/v1/channels/droz/${channel}/messages`, {
    headers: { Authorization: `Bearer ${CHANNEL_TOKEN}` },
    data: { contact: { phone, name }, message: { id: `e2e-dashboard-${Date.now()}`, content: 'Is anyone on the dashboard?' } },
  });
  expect(sent.status()).toBe(202);

  // Live: the row and the figure change through tenant_{uuid}_metrics, no reload.
  const table = page.getByRole('table', { name: 'Live conversations' });
  const row = table.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText('Waiting');
  await expect(row).toContainText('Is anyone on the dashboard?');
  await expect(newSessions).toHaveText(new RegExp(`(^|\\D)${before + 1}$`));
  // Newest start first: the new conversation heads the table.
  await expect(table.getByRole('row').nth(1)).toContainText(name);

  // Sorting by contact changes the order; a second click reverses it.
  await table.getByRole('button', { name: /Contact/ }).click();
  await expect(table.getByRole('columnheader', { name: /Contact/ })).toHaveAttribute('aria-sort', 'ascending');
  await table.getByRole('button', { name: /Contact/ }).click();
  await expect(table.getByRole('columnheader', { name: /Contact/ })).toHaveAttribute('aria-sort', 'descending');

  const uuid = (await row.getAttribute('data-testid'))!.replace('live-', '');
  const closed = await page.request.patch(`/api/v1/conversations/${uuid}`, { data: { state: 'closed', current_role: 'supervisor' } });
  expect(closed.status()).toBe(200);
  await expect(row).toHaveCount(0, { timeout: 10_000 });
});

test('the omnichannel panel shows the clock, the BETA badge and every sector against its SLA', async ({ browser }) => {
  const page = await signedInPage(browser, demo('supervisor'));
  await page.goto('/admin/dashboard-omnichannel');
  await expect(page.getByText('BETA', { exact: true })).toBeVisible();
  const sectors = ((await (await page.request.get('/api/v1/sectors?_limit=0')).json()) as { data: { uuid: string; name: string }[] }).data;
  expect(sectors.length).toBeGreaterThan(0);
  for (const sector of sectors) await expect(page.getByTestId(`sla-${sector.uuid}`)).toContainText(sector.name);
  await expect(page.getByText(/Within SLA|SLA breached/).first()).toBeVisible();
});

test('a supervisor opens a dashboard row in the live view, writes an internal note and transfers it', async ({ browser }) => {
  const page = await signedInPage(browser, demo('supervisor'));
  const channel = await demoApiChannel(page.request);
  const name = `Live view ${Date.now()}`;
  const phone = `+55119${String(Date.now()).slice(-8)}`;
  await sendContactMessage(page.request, channel, CHANNEL_TOKEN, {
    contact: { phone, name },
    message: { id: `e2e-live-${Date.now()}`, content: 'Can a supervisor help?' },
  });
  // An agent answers it: notes are for the agent of an active conversation.
  const agent = await signedInPage(browser, demo('agent'));
  await agent.goto('/app');
  await takeConversation(agent, (chat) => chat.contact.phone_number === phone);

  await page.goto('/admin');
  const row = page.getByRole('table', { name: 'Live conversations' }).getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible({ timeout: 10_000 });
  const uuid = (await row.getAttribute('data-testid'))!.replace('live-', '');
  await row.getByRole('link', { name: /Open conversation #\d+/ }).click();
  await expect(page).toHaveURL(new RegExp(`/chat/${uuid}$`));
  await expect(page.getByText('Can a supervisor help?')).toBeVisible();

  // The note reaches the conversation as an internal message (never the contact).
  await page.getByRole('textbox', { name: 'Internal note' }).fill('Offer the premium plan');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Internal note added')).toBeVisible();
  await expect(page.getByText('Offer the premium plan')).toBeVisible();
  const messages = (await (await page.request.get(`/api/v1/conversations/${uuid}/messages`)).json()) as {
    data: { message: string; internal: boolean }[];
  };
  expect(messages.data.find((m) => m.message === 'Offer the premium plan')?.internal).toBe(true);

  // Transfer to another sector: the conversation waits there.
  const sectors = ((await (await page.request.get('/api/v1/sectors?_limit=0')).json()) as { data: { uuid: string; name: string }[] }).data;
  const before = ((await (await page.request.get(`/api/v1/conversations/${uuid}`)).json()) as { data: { sector: { uuid: string } | null } })
    .data;
  const target = sectors.find((s) => s.uuid !== before.sector?.uuid)!;
  await page.getByRole('button', { name: 'Transfer', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Transfer session' });
  await dialog.getByRole('textbox', { name: 'Sector' }).click();
  await page.getByRole('option', { name: target.name, exact: true }).click();
  await dialog.getByRole('button', { name: 'Transfer' }).click();
  await expect(page.getByText('Session transferred successfully')).toBeVisible();
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/v1/conversations/${uuid}`)).json()) as { data: { sector: { uuid: string } | null } }).data
          .sector?.uuid,
    )
    .toBe(target.uuid);
  await page.request.patch(`/api/v1/conversations/${uuid}`, { data: { state: 'closed', current_role: 'supervisor' } });
});
