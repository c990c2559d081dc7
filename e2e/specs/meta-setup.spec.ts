import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';
import { metaContactWrites, metaSent } from './meta-contact';

// /messenger-setup: the admin connects a Facebook page through Meta's
// login (the stack's Meta simulator on E2E_PORT + 6 plays the dialog, the code exchange, the page
// list and subscribed_apps), picks the page and an entry point; a contact writes to that page, an
// agent answers from the workstation and Meta receives it.
const PORT = Number(process.env.E2E_PORT ?? 3100);
const META = `http://127.0.0.1:${Number(process.env.DEMO_META_PORT ?? PORT + 6)}`;
const PAGE_ID = '100000000004015';
/** The app's webhook verify token the stack's api is configured with (scripts/demo-meta-env.mjs). */
const VERIFY_TOKEN = 'demo-messenger-verify-token';

test('Messenger setup: an admin connects the page by the Facebook login, a contact writes, an agent answers and Meta receives it', async ({
  browser,
  request,
}) => {
  // Two users, Meta's dialog twice and a conversation: a long story.
  test.slow();
  const admin = await signedInPage(browser, demo('admin'));
  // The channels screen offers the setup screen first for a Messenger channel.
  await admin.goto('/admin/settings/workspace');
  await admin.getByRole('button', { name: 'New channel' }).click();
  const modal = admin.getByRole('dialog', { name: 'New channel' });
  await modal.getByRole('textbox', { name: 'Type' }).click();
  await admin.getByRole('option', { name: 'Messenger', exact: true }).click();
  await modal.getByRole('button', { name: 'Connect with Facebook' }).click();
  await expect(admin).toHaveURL(/\/messenger-setup$/);
  await expect(admin.getByRole('heading', { name: 'Connect a Facebook page' })).toBeVisible();

  // At Meta's dialog, Cancel comes back with nothing connected.
  await admin.getByRole('button', { name: 'Connect with Facebook' }).click();
  await expect(admin).toHaveURL(new RegExp(`^${META}/v\\d+\\.\\d+/dialog/oauth\\?`));
  await admin.getByRole('link', { name: 'Cancel' }).click();
  await expect(admin.getByText('The Facebook login was cancelled: nothing was connected.')).toBeVisible();

  // Continue: back on the setup screen with the pages of the login, no token in the address.
  await admin.getByRole('button', { name: 'Connect with Facebook' }).click();
  await admin.getByRole('link', { name: /^Continue as / }).click();
  await expect(admin).toHaveURL(/\/messenger-setup\?code=.+&state=/);
  const pages = admin.getByRole('radiogroup', { name: 'Choose the page' });
  await expect(pages.getByRole('radio')).toHaveCount(2);
  await expect(pages.getByRole('radio', { name: 'Atende Outlet' })).toBeVisible();
  // The demo "Messenger" channel already answers this page: connecting again updates it.
  await expect(pages.getByText('Connected to the channel Messenger: connecting again updates it')).toBeVisible();
  await pages.getByRole('radio', { name: 'Atende Demo' }).check();

  // New conversations enter the demo WhatsApp channel's sector, one the demo agents serve.
  const whatsapp = (await (await admin.request.get('/api/v1/channels?type=whatsapp_360dialog&_limit=0')).json()) as {
    data: { entry_point: { name: string } | null }[];
  };
  const sector = whatsapp.data[0]?.entry_point?.name;
  expect(sector).toBeDefined();
  await admin.getByRole('textbox', { name: 'Entry point' }).click();
  await admin.getByRole('option', { name: sector!, exact: true }).click();
  await admin.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(admin.getByText('The channel Messenger was updated with the new connection.')).toBeVisible();
  const settingsLink = await admin.getByRole('link', { name: 'Open channel settings' }).getAttribute('href');
  const channelId = /channels\/([0-9a-f-]{36})$/.exec(settingsLink ?? '')![1]!;

  // Meta subscribed the page to the app; the app's webhook (set once with the app's verify token) is the channel's address.
  expect(((await (await request.get(`${META}/_simulator/subscribed_apps`)).json()) as { subscribed: string[] }).subscribed).toContain(
    PAGE_ID,
  );
  const channel = (await (await admin.request.get(`/api/v1/channels/${channelId}`)).json()) as {
    data: { webhook_url: string; settings: Record<string, string>; credentials_set: string[] };
  };
  expect(channel.data.settings.page_id).toBe(PAGE_ID);
  expect(JSON.stringify(channel.data)).not.toContain('EAA');
  expect(
    (await request.post(`${META}/_simulator/webhook`, { data: { url: channel.data.webhook_url, verify_token: VERIFY_TOKEN } })).ok(),
  ).toBe(true);

  // A contact writes to the page; an agent answers; Meta sends it to the contact.
  const suffix = Date.now() % 100_000;
  const psid = String(7_300_000_000_000 + (Date.now() % 1_000_000_000));
  const { agent, messages } = await metaContactWrites(
    browser,
    request,
    META,
    { psid, firstName: 'Lúcia', lastName: String(suffix), text: 'Vocês entregam no sábado?' },
    channelId,
  );
  const answer = 'Entregamos sim, até as 14h.';
  await agent.getByRole('textbox', { name: 'Message' }).fill(answer);
  await agent.getByRole('textbox', { name: 'Message' }).press('Enter');
  await expect(messages.getByTestId('message').filter({ hasText: answer }).getByLabel('Sent')).toBeVisible({ timeout: 15_000 });
  expect(await metaSent(request, META)).toContainEqual(expect.objectContaining({ recipient: psid, text: answer, answeredStatus: 200 }));
  await admin.context().close();
  await agent.context().close();
});
