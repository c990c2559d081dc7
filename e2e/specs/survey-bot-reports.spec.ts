import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { readFile } from 'node:fs/promises';
import { demo, demoApiChannel, PASSWORD, sendContactMessage, signedInPage, takeConversation } from './helpers';

// The surveys (flag surveys_report) and bots (flag bots_report)
// reports, "repeated answers are flagged": a manager reads real survey answers and bot passes.
const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

async function downloaded(page: Page, name: RegExp): Promise<string> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return readFile((await download.path())!, 'utf8');
}
const sectorsOf = async (request: APIRequestContext) =>
  ((await (await request.get('/api/v1/sectors?_limit=0')).json()) as { data: { uuid: string; name: string }[] }).data;

// Several sign-ins, two finished conversations and four report screens: more than the default minute and a half on a busy machine.
test.describe.configure({ timeout: 180_000 });

test('surveys report: per survey with the average, a chart by day, each answer with the repeated one flagged, a download with Portuguese headers', async ({
  browser,
}) => {
  const admin = await signedInPage(browser, demo('admin'));
  // A survey left behind by an interrupted run would hold the sectors.
  const existing = ((await (await admin.request.get('/api/v1/surveys')).json()) as { data: { uuid: string; name: string }[] }).data;
  for (const s of existing.filter((s) => s.name.startsWith('E2E '))) await admin.request.delete(`/api/v1/surveys/${s.uuid}`);
  const name = `E2E report survey ${Date.now()}`;
  const created = await admin.request.post('/api/v1/surveys', {
    data: {
      name,
      question: 'How was it?',
      options: ['1', '2', '3', '4', '5'],
      greeting_message: 'Thanks!',
      sector_uuids: (await sectorsOf(admin.request)).map((s) => s.uuid),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const survey = ((await created.json()) as { data: { uuid: string } }).data.uuid;
  try {
    // The same contact is asked twice and answers twice: 5, then 4 (the second is a repeated answer).
    const agent = await signedInPage(browser, demo('agent'));
    await agent.goto('/app');
    const channel = await demoApiChannel(agent.request);
    const phone = `+55117${String(Date.now()).slice(-8)}`;
    const write = (content: string) =>
      sendContactMessage(agent.request, channel, 'demo-api-channel-token', {
        contact: { phone, name: 'Survey Report Contact' },
        message: { id: `e2e-survey-report-${Date.now()}-${Math.random()}`, content },
      });
    for (const answer of ['5', '4']) {
      await write('Hello, I need help');
      const chat = await takeConversation(agent, (c) => c.contact.phone_number === phone);
      expect((await agent.request.patch(`/api/v1/conversations/${chat.uuid}`, { data: { state: 'closed' } })).status()).toBe(200);
      // Stored before the next greeting, so it answers the survey rather than opening a conversation.
      expect((await write(answer)).conversation_uuid).toBe(chat.uuid);
    }
    await agent.context().close();

    // A Portuguese-speaking manager (the sign-in form is in Portuguese too).
    const page = await (await browser.newContext({ locale: 'pt-BR' })).newPage();
    await page.goto('/login');
    await page.getByLabel('E-mail').fill(demo('manager'));
    await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    const today = iso(new Date());
    await page.goto(`/admin/reports/surveys?start=${today}&end=${today}&survey_uuid=${survey}`);
    await expect(page.getByRole('heading', { name: 'Pesquisas' })).toBeVisible();
    await page.getByRole('button', { name: 'Gerar' }).click();
    const table = page.getByRole('table', { name: 'Pesquisas' });
    await expect(table.getByRole('columnheader')).toHaveText([
      'Pesquisa',
      'Pergunta',
      'Enviadas',
      'Atendidos',
      'Aguardando resposta',
      'Sem resposta',
      'Taxa de atendimento',
      'Nota média',
      'Respostas repetidas',
    ]);
    // The average of 5 and 4 with a decimal comma.
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(table.locator('tbody tr td')).toHaveText([name, 'How was it?', '2', '2', '0', '0', '100.00%', '4,5', '1']);
    const csv = parse(await downloaded(page, /Baixar CSV/), { bom: true }) as string[][];
    expect(csv).toEqual([
      [
        'Pesquisa',
        'Pergunta',
        'Enviadas',
        'Atendidos',
        'Aguardando resposta',
        'Sem resposta',
        'Taxa de atendimento',
        'Nota média',
        'Respostas repetidas',
      ],
      [name, 'How was it?', '2', '2', '0', '0', '100.00%', '4.5', '1'],
    ]);

    // By day: a chart with its value axis.
    await page.getByText('Por dia', { exact: true }).click();
    await expect(page).toHaveURL(/report_type=day/);
    await page.getByRole('button', { name: 'Gerar' }).click();
    await expect(page.getByRole('img', { name: 'Pesquisas' })).toBeVisible();
    await expect(page.getByTestId('chart-axis')).toBeVisible();

    // Answer by answer, newest first: the 4 is the repeated one; each opens its conversation.
    await page.getByText('Respostas', { exact: true }).click();
    await page.getByRole('button', { name: 'Gerar' }).click();
    const answers = page.getByRole('table', { name: 'Pesquisas' });
    await expect(answers.locator('tbody tr')).toHaveCount(2);
    const cells = await answers
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')));
    expect(cells.map((r) => [r[3], r[4], r[5]])).toEqual([
      ['4', '4', 'Sim'],
      ['5', '5', 'Não'],
    ]);
    await expect(answers.getByRole('link').first()).toHaveAttribute('href', /^\/chat-history\/reports\/[0-9a-f-]{36}$/);
  } finally {
    expect((await admin.request.delete(`/api/v1/surveys/${survey}`)).status()).toBe(200);
  }
});

test('bots report: the totals with a chart, then each pass through a menu with its outcome, narrowed to the menu, opening its conversation', async ({
  browser,
}) => {
  const admin = await signedInPage(browser, demo('admin'));
  const stamp = Date.now();
  // A channel of its own with a menu in front, so the demo channels keep going straight to the queue.
  const created = await admin.request.post('/api/v1/channels', { form: { name: `Bots report channel ${stamp}`, type: 'custom' } });
  expect(created.status()).toBe(201);
  const { data: channel, inbound_token: token } = (await created.json()) as { data: { uuid: string }; inbound_token: string };
  const sector = (await sectorsOf(admin.request))[0]!;
  const menuName = `E2E report menu ${stamp}`;
  const menu = await admin.request.post('/api/v1/automated-menus', {
    data: {
      name: menuName,
      message: 'Hi! 1 for us, 2 to leave',
      invalid_option_message: 'Please answer 1 or 2',
      enabled: true,
      answers: [
        { key: '1', label: sector.name, action: { type: 'transfer_to_sector', sector_uuid: sector.uuid } },
        { key: '2', label: 'Leave', action: { type: 'end_conversation' } },
      ],
    },
  });
  expect(menu.status(), await menu.text()).toBe(201);
  const menuUuid = ((await menu.json()) as { data: { uuid: string } }).data.uuid;
  expect(
    (await admin.request.patch(`/api/v1/channels/${channel.uuid}`, { data: { entry_point: menuUuid, entry_point_type: 'menu' } })).status(),
  ).toBe(200);
  const conversations: string[] = [];
  try {
    const write = async (who: string, content: string) => {
      const stored = await sendContactMessage(admin.request, channel.uuid, token, {
        contact: { phone: `+55116${String(stamp).slice(-7)}${who}`, name: `Menu ${who}` },
        message: { id: `e2e-bots-report-${stamp}-${who}-${content}`, content },
      });
      return stored.conversation_uuid;
    };
    // One goes to the queue, one leaves, one has not answered yet.
    for (const [who, answer] of [
      ['1', '1'],
      ['2', '2'],
      ['3', null],
    ] as const) {
      const uuid = await write(who, 'Hi');
      conversations.push(uuid);
      if (answer) await write(who, answer);
    }
    const states = async () =>
      Promise.all(
        conversations.map(
          async (c) => ((await (await admin.request.get(`/api/v1/conversations/${c}`)).json()) as { data: { state: string } }).data.state,
        ),
      );
    await expect.poll(states).toEqual(['waiting', 'closed', 'bot']);

    const page = await signedInPage(browser, demo('manager'));
    const today = iso(new Date());
    await page.goto(`/admin/reports/bots?start=${today}&end=${today}&channel_uuid=${channel.uuid}`);
    await expect(page.getByRole('heading', { name: 'Bots', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Generate' }).click();
    await expect(page.getByRole('img', { name: 'Bots', exact: true })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Bots', exact: true })).toContainText(menuName);

    const passes = page.getByRole('table', { name: 'Conversations through the bots' });
    await expect(passes).toBeVisible();
    await page.getByRole('textbox', { name: 'Bot or menu' }).click();
    await page.getByRole('option', { name: menuName }).click();
    await expect(passes.locator('tbody tr')).toHaveCount(3);
    await expect(page.getByText('Total: 3')).toBeVisible();
    const rows = await passes
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')));
    expect(rows.map((r) => r[4])).toEqual([menuName, menuName, menuName]);
    expect(rows.map((r) => r[5]).sort()).toEqual(['Ended', 'Sent to the queue', 'Still in the flow']);
    for (const c of conversations) await expect(passes.locator(`a[href="/chat-history/reports/${c}"]`)).toHaveCount(1);
  } finally {
    for (const c of conversations)
      await admin.request.patch(`/api/v1/conversations/${c}`, { data: { state: 'closed', current_role: 'supervisor' } });
    expect((await admin.request.delete(`/api/v1/channels/${channel.uuid}`)).ok()).toBe(true);
    await admin.request.delete(`/api/v1/automated-menus/${menuUuid}`);
  }
});
