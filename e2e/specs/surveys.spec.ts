import { expect, test } from '@playwright/test';
import { acceptConversationOf, demo, demoApiChannel, sendContactMessage, signedInPage } from './helpers';

// An admin sets up a survey; when an agent finishes a conversation of its sector
// the contact is asked, their answer is recorded, and the survey page shows it.
const CHANNEL_TOKEN = 'demo-api-channel-token';

test('an admin creates a survey; a finished conversation asks the contact and the answer is counted', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  // A survey left by an interrupted earlier run would hold the sectors: remove the specs' own.
  const existing = ((await (await admin.request.get('/api/v1/surveys')).json()) as { data: { uuid: string; name: string }[] }).data;
  for (const s of existing.filter((s) => s.name.startsWith('E2E survey'))) await admin.request.delete(`/api/v1/surveys/${s.uuid}`);
  const name = `E2E survey ${Date.now()}`;
  let surveyUuid = '';
  try {
    await admin.goto('/admin/settings/surveys');
    await admin.getByRole('button', { name: 'New survey' }).click();
    const dialog = admin.getByRole('dialog', { name: 'New survey' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByRole('textbox', { name: 'Question' }).fill('How did we do?');
    await dialog.getByRole('textbox', { name: 'Answer 1' }).fill('Great');
    await dialog.getByRole('textbox', { name: 'Answer 2' }).fill('great');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // Repeated answers are flagged; the empty greeting too.
    await expect(dialog.getByText('Repeated answer')).toBeVisible();
    await expect(dialog.getByText('Greeting message is required')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Answer 2' }).fill('Could be better');
    await dialog.getByRole('textbox', { name: 'Greeting message' }).fill('Thanks for telling us!');
    const sectors = ((await (await admin.request.get('/api/v1/sectors?_limit=0')).json()) as { data: { name: string }[] }).data;
    for (const sector of sectors) {
      await dialog.getByRole('textbox', { name: 'Sectors' }).click();
      await admin.getByRole('option', { name: sector.name, exact: true }).click();
    }
    // Close the sector list (it covers the buttons).
    await dialog.getByRole('textbox', { name: 'Question' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByText('Survey created successfully')).toBeVisible();
    const row = admin.getByRole('table', { name: 'Surveys' }).getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('Enabled');
    surveyUuid = ((await (await admin.request.get('/api/v1/surveys')).json()) as { data: { uuid: string; name: string }[] }).data.find(
      (s) => s.name === name,
    )!.uuid;

    // A contact writes, the agent takes the conversation and finishes it: the survey goes out.
    const agent = await signedInPage(browser, demo('agent'));
    const channel = await demoApiChannel(agent.request);
    const phone = `+55119${String(Date.now()).slice(-8)}`;
    const write = (id: string, content: string) =>
      sendContactMessage(agent.request, channel, CHANNEL_TOKEN, { contact: { phone, name: 'Survey Contact' }, message: { id, content } });
    await write(`e2e-survey-${Date.now()}-1`, 'Where is my order?');
    const chat = await acceptConversationOf(agent, phone);
    expect((await agent.request.patch(`/api/v1/conversations/${chat.uuid}`, { data: { state: 'closed' } })).status()).toBe(200);
    const asked = (
      (await (await admin.request.get(`/api/v1/conversations/${chat.uuid}/messages`)).json()) as { data: { message: string }[] }
    ).data;
    expect(asked.map((m) => m.message)).toContain('How did we do?\n\n1. Great\n2. Could be better');

    // The contact answers with the number of an answer: recorded on the finished conversation.
    expect((await write(`e2e-survey-${Date.now()}-2`, '1')).conversation_uuid).toBe(chat.uuid);

    await row.getByRole('link', { name }).click();
    await expect(admin.getByRole('heading', { name })).toBeVisible();
    await expect(admin.getByTestId('survey-answer-1')).toContainText('1 (100%)');
    await expect(admin.getByTestId('survey-answer-2')).toContainText('0 (0%)');
  } finally {
    if (surveyUuid) expect((await admin.request.delete(`/api/v1/surveys/${surveyUuid}`)).status()).toBe(200);
  }
});
