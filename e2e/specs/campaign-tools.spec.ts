import { expect, test } from '@playwright/test';
import { approvedTemplate, demo, DEMO_WHATSAPP_CHANNEL, signedInPage, WHATSAPP_PROVIDER } from './helpers';

/**
 * Campaign tools on the campaign list: the wizard does not drop a changed form on Escape without
 * asking, a campaign is duplicated, and its template is sent to one number as a test before Start.
 */
test('the wizard asks before dropping changes; a campaign is test-sent and duplicated', async ({ browser }) => {
  test.setTimeout(60_000);
  const page = await signedInPage(browser, demo('campaigns'));
  const suffix = Date.now() % 100_000;
  const templateName = `teste_${suffix}`;
  await approvedTemplate(page, templateName);
  const templateUuid = (
    (await (
      await page.request.get(`/api/v1/channels/${DEMO_WHATSAPP_CHANNEL}/outbound_templates?status=approved&name__contains=${templateName}`)
    ).json()) as { data: { uuid: string }[] }
  ).data[0]!.uuid;
  const name = `Teste ${suffix}`;
  const created = await page.request.post('/api/v1/campaign', {
    data: {
      name,
      channel_uuid: DEMO_WHATSAPP_CHANNEL,
      whatsapp_template_uuid: templateUuid,
      dnd_list: [],
      config: {
        default_action: { action: 'end_with_message' },
        reply_actions: { Quero: { action: 'end_with_message' }, Sair: { action: 'end_with_message' } },
      },
    },
  });
  expect(created.status()).toBe(201);

  // Escape on a changed wizard asks; keeping edits keeps them; discarding closes.
  await page.goto('/admin/campaigns');
  await page.getByRole('button', { name: 'Add campaign' }).click();
  const wizard = page.getByRole('dialog');
  await wizard.getByRole('textbox', { name: 'Name' }).fill('Rascunho');
  await page.keyboard.press('Escape');
  await expect(wizard.getByText('Discard the changes made to this campaign?')).toBeVisible();
  await wizard.getByRole('button', { name: 'Keep editing' }).click();
  await expect(wizard.getByRole('textbox', { name: 'Name' })).toHaveValue('Rascunho');
  await page.keyboard.press('Escape');
  await wizard.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // An untouched wizard closes at once.
  await page.getByRole('button', { name: 'Add campaign' }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // A test send: the number receives the template with the parameter typed; nobody is subscribed.
  const row = page.getByRole('table', { name: 'Campaigns' }).getByRole('row', { name: new RegExp(name) });
  const phone = `+55119${String(73_000_000 + suffix).padStart(8, '0')}`;
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Send a test' }).click();
  const trial = page.getByRole('dialog', { name: 'Send a test' });
  await trial.getByRole('textbox', { name: 'Phone number' }).fill(phone);
  await expect(trial.getByRole('button', { name: 'Send' })).toBeDisabled();
  await trial.getByRole('textbox', { name: 'body_1' }).fill('Ana Teste');
  await trial.getByRole('button', { name: 'Send' }).click();
  await expect(trial.getByText(`Test message sent to ${phone}`)).toBeVisible();
  const sent = (
    (await (await page.request.get(`${WHATSAPP_PROVIDER}/_simulator/sent`)).json()) as { sent: { body: { to?: string } }[] }
  ).sent.filter((s) => s.body.to === phone.slice(1));
  expect(sent).toHaveLength(1);
  expect(JSON.stringify(sent[0]!.body)).toContain('Ana Teste');
  // A number the provider refuses: its reason, in the modal.
  await page.request.post(`${WHATSAPP_PROVIDER}/_simulator/unknown-recipients`, { data: { numbers: ['+5511900000999'] } });
  await trial.getByRole('textbox', { name: 'Phone number' }).fill('+5511900000999');
  await trial.getByRole('button', { name: 'Send' }).click();
  await expect(trial.getByText(/The provider did not accept the test message/)).toBeVisible();
  await trial.getByRole('button', { name: 'Close' }).first().click();

  // Duplicate: a new stopped campaign with the same template, named as the user chose.
  await row.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  const copy = page.getByRole('dialog', { name: 'Duplicate campaign' });
  await expect(copy.getByRole('textbox', { name: 'Name' })).toHaveValue(`Copy of ${name}`);
  await copy.getByRole('textbox', { name: 'Name' }).fill(`${name} (2)`);
  await copy.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByText('Campaign duplicated')).toBeVisible();
  const copied = page.getByRole('table', { name: 'Campaigns' }).getByRole('row', { name: new RegExp(`${name} \\(2\\)`) });
  await expect(copied).toContainText(templateName);
  await page.context().close();
});
