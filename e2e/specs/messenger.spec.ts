import { expect, test } from '@playwright/test';
import { demo, signedInPage } from './helpers';
import { metaContactWrites, metaSent } from './meta-contact';

// A Messenger and an Instagram channel end to end against the stack's Meta simulators
// (E2E_PORT + 6 plays Messenger, + 9 Instagram messaging): the admin creates the channel in Settings >
// Workspace, sets its webhook at "Meta" (the simulator's dashboard stand-in, which runs the
// hub.challenge handshake), a contact writes, an agent answers from the workstation, Meta sends it.
// A page answers one channel. The demo "Messenger" and "Instagram" channels hold the
// demo page, so the form refuses it (409, nothing stored); the admin connects the demo user's other
// page, "Atende Outlet" (the simulator serves both, each with its own token and webhook).
const PORT = Number(process.env.E2E_PORT ?? 3100);
const KINDS = [
  {
    label: 'Messenger',
    meta: `http://127.0.0.1:${Number(process.env.DEMO_META_PORT ?? PORT + 6)}`,
    maxText: 2000,
    psidBase: 7_100_000_000_000,
  },
  {
    label: 'Instagram',
    meta: `http://127.0.0.1:${Number(process.env.DEMO_INSTAGRAM_PORT ?? PORT + 9)}`,
    maxText: 1000,
    psidBase: 7_200_000_000_000,
  },
] as const;
const PAGE_ID = '100000000004015';
const PAGE_TOKEN = 'EAAdemo-atende-messenger-page-token';
const OUTLET_PAGE_ID = '100000000004016';
const OUTLET_PAGE_TOKEN = `${PAGE_TOKEN}-outlet`;
const APP_SECRET = 'demo-messenger-app-secret';
const TAKEN = 'This page, account, number or bot is already connected to another channel';

for (const { label, meta: META, maxText, psidBase } of KINDS) {
  test(`${label}: an admin creates the channel, a contact writes, an agent answers and the contact receives it`, async ({
    browser,
    request,
  }) => {
    const admin = await signedInPage(browser, demo('admin'));
    const suffix = Date.now() % 100_000;
    const verifyToken = `verify-${suffix}`;
    await admin.goto('/admin/settings/workspace');
    await admin.getByRole('button', { name: 'New channel' }).click();
    const modal = admin.getByRole('dialog', { name: 'New channel' });
    await modal.getByRole('textbox', { name: 'Type' }).click();
    await admin.getByRole('option', { name: label, exact: true }).click();
    await modal.getByRole('textbox', { name: 'Name' }).fill(`${label} ${suffix}`);
    await modal.getByLabel('Facebook page ID').fill(PAGE_ID);
    await modal.getByLabel('Page access token').fill(PAGE_TOKEN);
    await modal.getByLabel('App secret').fill(APP_SECRET);
    await modal.getByLabel('Verify token').fill(verifyToken);
    await modal.getByLabel('API address').fill(META);
    // The demo page already answers the demo channel: refused on the page field, nothing stored.
    await modal.getByRole('button', { name: 'Create channel' }).click();
    await expect(modal.getByText(TAKEN)).toBeVisible();
    await expect(modal.getByLabel('Facebook page ID')).toHaveAccessibleDescription(/already connected to another channel/);
    const type = label === 'Messenger' ? 'messenger' : 'instagram';
    const names = async () =>
      ((await (await admin.request.get(`/api/v1/channels?type=${type}&_limit=0`)).json()) as { data: { name: string }[] }).data.map(
        (c) => c.name,
      );
    expect(await names()).not.toContain(`${label} ${suffix}`);

    // The demo user's other page, with its own token, is free.
    await modal.getByLabel('Facebook page ID').fill(OUTLET_PAGE_ID);
    await modal.getByLabel('Page access token').fill(OUTLET_PAGE_TOKEN);
    await modal.getByRole('button', { name: 'Create channel' }).click();
    await expect(modal.getByText(`The channel ${label} ${suffix} was created.`)).toBeVisible();
    expect(await names()).toContain(`${label} ${suffix}`);
    const webhookUrl = (await modal.getByText(/\/api\/v1\/channels\/[0-9a-f-]{36}\/webhook/).textContent())!.trim();
    const channelId = /channels\/([0-9a-f-]{36})\/webhook/.exec(webhookUrl)![1]!;
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await expect(admin.getByRole('table', { name: 'Channels' }).getByRole('row', { name: new RegExp(`${label} ${suffix}`) })).toContainText(
      label,
    );

    // New conversations enter the demo WhatsApp channel's sector, one the demo agents serve.
    const whatsapp = (await (await admin.request.get('/api/v1/channels?type=whatsapp_360dialog&_limit=0')).json()) as {
      data: { entry_point: { uuid: string } | null }[];
    };
    const sector = whatsapp.data[0]?.entry_point?.uuid;
    expect(sector).toBeDefined();
    expect(
      (await admin.request.patch(`/api/v1/channels/${channelId}`, { data: { entry_point: sector, entry_point_type: 'sector' } })).ok(),
    ).toBe(true);

    // At "Meta", the Outlet's webhook: a wrong verify token is refused by our handshake, ours is accepted.
    const hook = (verify_token: string) =>
      request.post(`${META}/_simulator/webhook`, { data: { url: webhookUrl, verify_token, page_id: OUTLET_PAGE_ID } });
    expect((await hook('wrong')).status()).toBe(400);
    expect((await hook(verifyToken)).ok()).toBe(true);

    // A contact (a page-scoped id, no phone) writes to the Outlet; the name comes from the profile lookup.
    const psid = String(psidBase + (Date.now() % 1_000_000_000));
    const { agent, messages } = await metaContactWrites(
      browser,
      request,
      META,
      { psid, firstName: 'Marta', lastName: String(suffix), text: 'Oi! Vocês abrem no domingo?', pageId: OUTLET_PAGE_ID },
      channelId,
    );

    // The composer counts against the channel's limit (Messenger 2000 characters, Instagram 1000).
    const composer = agent.getByRole('textbox', { name: 'Message' });
    const answer = 'Abrimos sim, das 10h às 16h.';
    await composer.fill(answer);
    await expect(agent.getByTestId('composer-limit')).toHaveText(`${maxText - answer.length} characters left`);
    await composer.press('Enter');
    const reply = messages.getByTestId('message').filter({ hasText: answer });
    await expect(reply.getByLabel('Sent')).toBeVisible({ timeout: 15_000 });

    // The Outlet (its token) sent it to the contact's PSID.
    expect(await metaSent(request, META)).toContainEqual(
      expect.objectContaining({ pageId: OUTLET_PAGE_ID, recipient: psid, text: answer, answeredStatus: 200 }),
    );
    await admin.context().close();
    await agent.context().close();
  });
}

test('Messenger: a new contact pressing Get Started reaches the agent as the button pressed, not dropped', async ({ browser, request }) => {
  const META = KINDS[0].meta;
  const channels = (await (await request.get(`${META}/_simulator/webhook`)).json()) as { webhook: { url: string } | null };
  const channelId = /channels\/([0-9a-f-]{36})\/webhook/.exec(channels.webhook?.url ?? '')?.[1];
  expect(channelId, 'the demo Messenger channel answers the demo page').toBeDefined();
  const psid = String(7_300_000_000_000 + (Date.now() % 1_000_000_000));
  const { agent, messages } = await metaContactWrites(
    browser,
    request,
    META,
    { psid, firstName: 'Renata', lastName: String(Date.now() % 100_000), text: 'Começar', postback: true },
    channelId!,
  );
  const pressed = messages.getByTestId('message').filter({ hasText: 'Começar' });
  await expect(pressed.getByTestId('message-details')).toHaveText('Pressed a button');
  await agent.context().close();
});
