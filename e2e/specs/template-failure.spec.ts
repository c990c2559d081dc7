import { expect, test } from '@playwright/test';
import { approvedTemplate, demo, signedInPage, startFromPhonebook, WHATSAPP_PROVIDER } from './helpers';

// An agent starts a WhatsApp conversation with a template the provider refuses (the
// number is not a WhatsApp user). The conversation is closed with the template-send-error tag, the chat
// says "There were errors sending template message", and its Close button takes it off the list.
test('a template the provider refuses closes the new conversation with the error and a Close button', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  const templateName = `falha_${Date.now() % 100_000}`;
  await approvedTemplate(admin, templateName, { buttons: false });
  await admin.context().close();

  const agent = await signedInPage(browser, demo('agent'));
  const digits = String(Date.now()).slice(-8);
  const name = `Sem WhatsApp ${digits.slice(-4)}`;
  const created = await agent.request.post('/api/v1/contacts', { data: { name, organization: 'Teste', phone1: `(11) 9${digits}` } });
  expect(created.status()).toBe(201);
  // The provider answers this number as unknown: a permanent refusal.
  expect(
    (await agent.request.post(`${WHATSAPP_PROVIDER}/_simulator/unknown-recipients`, { data: { numbers: [`+55119${digits}`] } })).status(),
  ).toBe(204);

  const start = await startFromPhonebook(agent, name, 'WhatsApp');
  await start.getByRole('textbox', { name: 'Template' }).click();
  await agent.getByRole('option', { name: templateName }).click();
  await start.getByRole('textbox', { name: 'Parameter 1' }).fill('Ana');
  await start.getByRole('button', { name: 'Start conversation' }).click();
  await expect(start).toHaveCount(0);

  const list = agent.getByRole('listbox', { name: 'Conversations' });
  await list.getByRole('option', { name: new RegExp(name) }).click();
  await expect(agent.getByText('There were errors sending template message')).toBeVisible({ timeout: 20_000 });
  const actions = agent.getByRole('toolbar', { name: 'Conversation actions' });
  await expect(actions.getByRole('button', { name: 'Finish' })).toHaveCount(0);
  await actions.getByRole('button', { name: 'Close' }).click();
  await expect(list.getByRole('option', { name: new RegExp(name) })).toHaveCount(0);
  await agent.context().close();
});
