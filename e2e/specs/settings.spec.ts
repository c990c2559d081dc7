import { expect, test, type Page } from '@playwright/test';
import { acceptConversationOf, demo, demoApiChannel, sendContactMessage, signedInPage } from './helpers';

// An admin creates a sector, a pause and a canned response in the settings
// screens; an agent then finds the pause in the pause control and the canned response in the
// composer's suggestions. Names carry a suffix of this run: other specs share the database.

const CHANNEL_TOKEN = 'demo-api-channel-token';
/** Letters only: canned keywords have no spaces or numbers. */
const suffix = Date.now()
  .toString(36)
  .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);

async function openSettings(admin: Page, card: string): Promise<void> {
  await admin.goto('/admin/settings');
  await admin.getByRole('link', { name: card, exact: true }).click();
  await expect(admin.getByRole('heading', { name: card })).toBeVisible();
}

test('an admin creates a sector, a pause and a canned response; an agent uses the pause and the canned response', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  const sector = `Retention ${suffix}`;
  const pause = `Stretch ${suffix}`;
  const keyword = `resp${suffix}`;
  const message = `Resposta pronta ${suffix}`;

  // A sector, from the hub's Sectors card; the form says what is missing before calling the api.
  await openSettings(admin, 'Sectors');
  await admin.getByRole('button', { name: 'New sector' }).click();
  const sectorForm = admin.getByRole('dialog', { name: 'New sector' });
  await sectorForm.getByRole('button', { name: 'Save' }).click();
  await expect(sectorForm.getByText('This field is required')).toBeVisible();
  await sectorForm.getByLabel('Name').fill(sector);
  await sectorForm.getByLabel('First response SLA (seconds)').fill('120');
  await sectorForm.getByLabel('Announce the ticket number').check();
  await sectorForm.getByRole('button', { name: 'Save' }).click();
  await expect(sectorForm.getByText('The ticket message is required when the ticket is announced')).toBeVisible();
  await sectorForm.getByLabel('Ticket message').fill('Seu protocolo foi registrado.');
  await sectorForm.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Sector successfully created')).toBeVisible();
  await expect(admin.getByRole('table', { name: 'Sectors' }).getByRole('row', { name: new RegExp(sector) })).toContainText('00:02:00');

  // A pause.
  await openSettings(admin, 'Pauses');
  await admin.getByRole('button', { name: 'New pause' }).click();
  const pauseForm = admin.getByRole('dialog', { name: 'New pause' });
  await pauseForm.getByLabel('Description').fill(pause);
  await pauseForm.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Pause successfully created')).toBeVisible();
  await expect(admin.getByRole('table', { name: 'Pauses' }).getByRole('row', { name: pause })).toBeVisible();

  // A canned response for every sector; a keyword with a space is refused with the spec's rule.
  await openSettings(admin, 'Canned responses');
  await admin.getByRole('button', { name: 'New canned response' }).click();
  const cannedForm = admin.getByRole('dialog', { name: 'New canned response' });
  await cannedForm.getByLabel('Keyword').fill('bom dia');
  await cannedForm.getByLabel('Message').fill(message);
  await cannedForm.getByRole('button', { name: 'Save' }).click();
  await expect(cannedForm.getByText('The keyword cannot contain spaces or numbers')).toBeVisible();
  await cannedForm.getByLabel('Keyword').fill(keyword);
  await cannedForm.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Canned response successfully created')).toBeVisible();
  await admin.getByRole('textbox', { name: 'Search by keyword' }).fill(keyword);
  await expect(admin.getByRole('table', { name: 'Canned responses' }).getByRole('row', { name: new RegExp(keyword) })).toContainText(
    'All sectors',
  );
  const channel = await demoApiChannel(admin.request);
  await admin.context().close();

  // The agent: the new pause is offered in the pause control.
  const agent = await signedInPage(browser, demo('agent'));
  await expect(agent.getByRole('listbox', { name: 'Conversations' })).toBeVisible();
  await agent.getByRole('button', { name: 'Online' }).click();
  await expect(agent.getByRole('menuitem', { name: pause })).toBeVisible();
  await agent.keyboard.press('Escape');

  // A contact writes; the agent takes the conversation and types "/" and the keyword's start.
  const phone = `+55119${String(Date.now()).slice(-8)}`;
  await sendContactMessage(agent.request, channel, CHANNEL_TOKEN, {
    contact: { phone, name: `Settings ${phone.slice(-4)}` },
    message: { id: `e2e-settings-${suffix}`, content: 'Olá!' },
  });
  await acceptConversationOf(agent, phone);
  const composer = agent.getByRole('textbox', { name: 'Message' });
  await composer.fill(`/${keyword.slice(0, -1)}`);
  const suggestions = agent.getByRole('listbox', { name: 'Canned responses' });
  await expect(suggestions.getByRole('option', { name: new RegExp(keyword) })).toBeVisible();
  await composer.press('Enter');
  await expect(composer).toHaveValue(message);
  await agent.context().close();
});

// The settings hub links every settings screen, conversation reasons and fields too.
test('the settings hub has a card for every settings screen, conversation reasons and fields included', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  for (const card of ['Conversation reasons', 'Conversation fields']) await openSettings(admin, card);
  // A supervisor reads the settings but does not manage these two: no card.
  const supervisor = await signedInPage(browser, demo('supervisor'));
  await supervisor.goto('/admin/settings');
  await expect(supervisor.getByRole('link', { name: 'Pauses', exact: true })).toBeVisible();
  for (const card of ['Conversation reasons', 'Conversation fields'])
    await expect(supervisor.getByRole('link', { name: card, exact: true })).toHaveCount(0);
  await admin.context().close();
  await supervisor.context().close();
});
