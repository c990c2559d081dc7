import { expect, test, type Page } from '@playwright/test';
import { approvedTemplate, demo, screenshot, signedInPage, WHATSAPP_PROVIDER } from './helpers';

/**
 * A campaign end to end on the demo "WhatsApp" channel, whose provider is the 360dialog
 * simulator of the e2e stack (helpers' WHATSAPP_PROVIDER): the template is approved there, the sends
 * arrive there, and a contact's button reply comes from there.
 */
const PROVIDER = WHATSAPP_PROVIDER;

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('dialog').getByRole('textbox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a campaign is built, fed, sent, answered and reported', async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await signedInPage(browser, demo('campaigns'));
  const suffix = Date.now() % 100_000;
  const templateName = `oferta_${suffix}`;
  await approvedTemplate(page, templateName);
  const phones = [
    `+55119${String(70_000_000 + suffix).padStart(8, '0')}`,
    `+55119${String(71_000_000 + suffix).padStart(8, '0')}`,
    `+55119${String(72_000_000 + suffix).padStart(8, '0')}`,
  ];

  // The wizard: data, template, button actions.
  await page.goto('/admin/campaigns');
  await page.getByRole('button', { name: 'Add campaign' }).click();
  const wizard = page.getByRole('dialog');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(wizard.getByText('Name is required')).toBeVisible();
  await expect(wizard.getByText('Channel is required')).toBeVisible();
  const name = `Oferta ${suffix}`;
  await wizard.getByRole('textbox', { name: 'Name' }).fill(name);
  await choose(page, 'Channel', 'WhatsApp');
  await choose(page, 'Inbound entry point', 'Sales');
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(wizard.getByText('Please, select a template')).toBeVisible();
  await wizard.getByRole('radio', { name: templateName }).check();
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard.getByRole('button', { name: 'Create campaign' }).click();
  await expect(wizard.getByText('Action is required').first()).toBeVisible();
  await choose(page, 'Action for Quero', 'Transfer to a sector');
  await choose(page, 'Sector for Quero', 'Sales');
  await wizard.getByRole('textbox', { name: 'Message for Quero' }).fill('Um consultor já vai falar com você.');
  await choose(page, 'Action for Sair', 'End with a message');
  await choose(page, 'Action for Default action', 'End with a message');
  await screenshot(page, 'campaign-wizard-actions');
  await wizard.getByRole('button', { name: 'Create campaign' }).click();
  await expect(page.getByText('Campaign successfully created')).toBeVisible();

  // Subscribers: a CSV import, with its summary.
  const row = page.getByRole('table', { name: 'Campaigns' }).getByRole('row', { name: new RegExp(name) });
  await expect(row.getByRole('button', { name: `Start ${name}` })).toBeDisabled();
  await row.getByRole('link', { name: `Subscribers of ${name}` }).click();
  const importFile = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import subscribers' }).click();
    await (await chooser).setFiles(file);
  };
  // A file that is not text is refused at once, saying why.
  await importFile({
    name: 'assinantes.csv',
    mimeType: 'text/csv',
    buffer: Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), Buffer.alloc(600)]),
  });
  await expect(
    page.getByText('Invalid file! Its text could not be read: save it as CSV (UTF-8) or Excel (.xlsx) and try again'),
  ).toBeVisible();
  // The CSV a pt-BR Excel saves: Windows-1252, ; separated, its parameter column named after the placeholder.
  const csv = [
    'name;phone;body_1',
    `João;${phones[0]};Olá João`,
    `Bruno;${phones[1]};Bruno`,
    `Carla;${phones[2]};Carla`,
    'Sem telefone;123;X',
  ].join('\r\n');
  await importFile({ name: 'assinantes.csv', mimeType: 'application/vnd.ms-excel', buffer: Buffer.from(csv, 'latin1') });
  await expect(page.getByText('Import finished: 3 imported, 0 ignored, 1 with errors')).toBeVisible({ timeout: 15_000 });
  // The progress bar heard live ends at every row of the file read.
  await expect(page.getByText('4 / 4 rows')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Import progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByRole('table', { name: 'Subscribers' }).getByRole('row')).toHaveCount(5);
  await expect(page.getByRole('table', { name: 'Subscribers' }).getByRole('cell', { name: 'Olá João', exact: true })).toBeVisible();
  await screenshot(page, 'campaign-subscribers');

  // Start: the provider receives one template message per valid subscriber.
  await page.goto('/admin/campaigns');
  await row.getByRole('button', { name: `Start ${name}` }).click();
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`${PROVIDER}/_simulator/sent`)).json()) as { sent: { body: { to?: string } }[] }).sent.filter((s) =>
          phones.some((p) => p.slice(1) === s.body.to),
        ).length,
      { timeout: 20_000 },
    )
    .toBe(3);
  // The parameter reaches the provider as typed, accents and all.
  const sent = ((await (await page.request.get(`${PROVIDER}/_simulator/sent`)).json()) as { sent: { body: { to?: string } }[] }).sent.find(
    (s) => s.body.to === phones[0]!.slice(1),
  );
  expect(JSON.stringify(sent?.body)).toContain('Olá João');
  await expect(row.getByRole('button', { name: `Start ${name}` })).toBeVisible({ timeout: 15_000 });
  // The finished run shows its outcome live, and offers no Start while nobody is pending.
  await expect(row).toContainText('Sent 3 · Errors 1 · Remaining 0 of 4', { timeout: 15_000 });
  await expect(row.getByRole('button', { name: `Start ${name}` })).toBeDisabled();
  await screenshot(page, 'campaign-list-sent');

  // A contact presses "Quero": a conversation opens in the Sales queue.
  const inbound = await page.request.post(`${PROVIDER}/_simulator/inbound`, {
    data: { from: phones[0], button: { text: 'Quero', payload: 'Quero' } },
  });
  expect(inbound.status()).toBe(200);
  const today = new Date().toISOString().slice(0, 10);
  const reportQuery = `start=${today}&end=${today}&timezone=UTC`;
  let conversation = '';
  await expect
    .poll(
      async () => {
        const report = (await (await page.request.get(`/api/v1/reports/campaign/subscribers?${reportQuery}&state=completed`)).json()) as {
          data: { phone_number: string; conversation_uuid: string | null }[];
        };
        conversation = report.data.find((r) => r.phone_number === phones[0])?.conversation_uuid ?? '';
        return conversation;
      },
      { timeout: 20_000 },
    )
    .not.toBe('');
  const supervisor = await signedInPage(browser, demo('supervisor'));
  const opened = (await (await supervisor.request.get(`/api/v1/conversations/${conversation}`)).json()) as {
    data: { sector: { name: string } | null; state: string };
  };
  expect(opened.data).toMatchObject({ state: 'waiting', sector: { name: 'Sales' } });
  // Leave the queue as the seed made it for the next specs.
  expect(
    (
      await supervisor.request.patch(`/api/v1/conversations/${conversation}`, { data: { state: 'closed', current_role: 'supervisor' } })
    ).status(),
  ).toBe(200);
  await supervisor.context().close();
  // The campaign manager reads that conversation through the report's link.
  await page.goto(`/chat-history/reports/${conversation}`);
  await expect(page.getByText('Quero', { exact: true }).first()).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/chat-history/reports/${conversation}$`));

  // The report and its CSV export show the rows.
  await page.goto(`/admin/campaigns/report?${reportQuery}`);
  const history = page.getByRole('table', { name: 'History' });
  await expect(history.getByRole('row', { name: new RegExp(phones[0]!.replace('+', '\\+')) })).toContainText('Quero');
  await expect(page.getByRole('table', { name: 'Summary' }).getByRole('row', { name: new RegExp(name) })).toBeVisible();
  await screenshot(page, 'campaign-report');
  await expect(page.getByRole('img', { name: 'Summary chart' })).toBeVisible();
  const exported = await page.request.get(`/api/v1/reports/campaign/subscribers?${reportQuery}&_limit=0&format=csv`);
  expect(exported.headers()['content-type']).toContain('text/csv');
  const text = await exported.text();
  for (const phone of phones) expect(text).toContain(phone);

  // A failed row can be edited: the save stays off until the state changes.
  await page.goto('/admin/campaigns');
  await page
    .getByRole('table', { name: 'Campaigns' })
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('link', { name: `Subscribers of ${name}` })
    .click();
  await page.getByRole('button', { name: 'Edit Sem telefone' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit subscriber' });
  await expect(edit.getByText('Número de telefone inválido')).toBeVisible();
  await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  await edit.getByRole('textbox', { name: 'State' }).click();
  await page.getByRole('option', { name: 'Completed', exact: true }).click();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Subscriber edited successfully')).toBeVisible();

  // Deleting the template this campaign uses asks again, naming the campaign; cancelled, nothing changes.
  await page.goto('/admin/campaigns/whatsapp-templates');
  await page
    .getByRole('table', { name: 'Templates' })
    .getByRole('row', { name: new RegExp(templateName) })
    .getByRole('button', { name: `Delete ${templateName}` })
    .click();
  await page.getByRole('dialog', { name: 'Delete template' }).getByRole('button', { name: 'Delete' }).click();
  const inUse = page.getByRole('dialog', { name: 'Campaigns use this template' });
  await expect(inUse).toContainText(name);
  await screenshot(page, 'template-in-use');
  await inUse.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('table', { name: 'Templates' }).getByRole('row', { name: new RegExp(templateName) })).toBeVisible();
  await page.context().close();
});

test('do-not-disturb lists: a new list, a new contact linked to it, consulted and taken off again', async ({ browser }) => {
  const page = await signedInPage(browser, demo('campaigns'));
  await page.goto('/admin/campaigns/dnd-list');
  const list = `Não perturbe ${Date.now() % 100_000}`;
  await page.getByRole('button', { name: 'New list' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('dialog').getByText('This field is required')).toBeVisible();
  await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill(list);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Lista criada com sucesso')).toBeVisible();

  const phone = `119${String(60_000_000 + (Date.now() % 1_000_000)).padStart(8, '0')}`;
  await page.getByRole('button', { name: 'Add contact to lists' }).click();
  const link = page.getByRole('dialog');
  await link.getByRole('button', { name: 'Save' }).click();
  await expect(link.getByText('Número de telefone é obrigatório')).toBeVisible();
  await expect(link.getByText('Deve ser escolhida pelo menos uma lista')).toBeVisible();
  await link.getByRole('textbox', { name: 'Phone' }).fill('123');
  await link.getByRole('button', { name: 'Save' }).click();
  await expect(link.getByText('Número de telefone inválido')).toBeVisible();
  await link.getByRole('textbox', { name: 'Phone' }).fill(phone);
  await link.getByRole('textbox', { name: 'Phone' }).blur();
  await link.getByRole('textbox', { name: 'Name' }).fill('Otávio');
  await link.getByRole('textbox', { name: 'Organization' }).fill('Otávio ME');
  await link.getByRole('textbox', { name: 'Lists' }).fill(list.slice(0, 8));
  await page.getByRole('option', { name: list }).click();
  await link.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Contato adicionado às listas com sucesso')).toBeVisible();
  await expect(
    page.getByRole('table', { name: 'Do not disturb lists' }).getByRole('row', { name: new RegExp(`${list}\\s*1`) }),
  ).toBeVisible();
  // The list's members view warns before taking a contact off, and Cancel keeps them.
  await page.getByRole('button', { name: list, exact: true }).click();
  const members = page.getByRole('dialog', { name: list });
  await members.getByRole('button', { name: 'Remove Otávio' }).click();
  await expect(members.getByText(/can be used by several campaigns/)).toBeVisible();
  await members.getByRole('button', { name: 'Cancel' }).click();
  await expect(members.getByRole('button', { name: 'Remove Otávio' })).toBeVisible();
  await members.getByRole('textbox', { name: 'Search by name or phone' }).fill('Ninguém');
  await expect(members.getByText('No data found')).toBeVisible();
  await members.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'Consult Do Not Disturb Lists' }).click();
  const consult = page.getByRole('dialog');
  await consult.getByRole('textbox', { name: 'Phone' }).fill('11900000000');
  await consult.getByRole('button', { name: 'Search' }).click();
  await expect(consult.getByText('Subscriber not found')).toBeVisible();
  await consult.getByRole('textbox', { name: 'Phone' }).fill(`+55${phone}`);
  await consult.getByRole('button', { name: 'Search' }).click();
  await expect(consult.getByText('Otávio')).toBeVisible();
  await consult.getByRole('button', { name: `Remove from ${list}` }).click();
  await expect(consult.getByText(/can be used by several campaigns/)).toBeVisible();
  await consult.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(consult.getByText('This subscriber is not in any Dnd lists')).toBeVisible();
  await page.context().close();
});
