import { expect, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { readFile } from 'node:fs/promises';
import { acceptConversationOf, demo, demoApiChannel, sendContactMessage, signedInPage } from './helpers';

// Reports and their filter rules: a manager opens each report, generates it, and the
// CSV and Excel downloads parse to the same rows as the screen's table.
// `fed`: the conversation the test makes (and the manager's sign-in) always gives the report rows;
// a report without it may be empty in a fresh database and then has empty downloads.
const REPORTS: { path: string; title: string; type?: string; fed?: boolean }[] = [
  { path: 'chat-history', title: 'Chat history', fed: true },
  { path: 'agents-productivity', title: 'Agents productivity', fed: true },
  { path: 'session-rate', title: 'Session rate', fed: true },
  { path: 'session-rate-by-agent', title: 'Session rate by agent', fed: true },
  { path: 'session-volume-trends', title: 'Session volume trends', fed: true },
  { path: 'session-volume-trends', title: 'Session volume trends', type: 'By hour', fed: true },
  { path: 'session-metrics', title: 'Session metrics', fed: true },
  { path: 'login-history', title: 'Login history', fed: true },
  { path: 'bots', title: 'Bots' },
  { path: 'surveys', title: 'Surveys' },
];

/** The screen table's body, cell texts per row. */
async function screenRows(page: Page, title: string): Promise<string[][]> {
  const table = page.getByRole('table', { name: title, exact: true });
  return table
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent ?? '')));
}

async function downloaded(page: Page, name: RegExp): Promise<Buffer> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name }).click()]);
  return readFile((await download.path())!);
}

/** A screen cell against the file's: the screen writes an empty value as '--'. */
const same = (screen: string[], file: string[]) =>
  screen.length === file.length && screen.every((cell, i) => cell === file[i] || (cell === '--' && file[i] === ''));

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

test('a manager generates every report and its CSV and Excel hold the rows on screen', async ({ browser }) => {
  // Ten reports, each generated and downloaded twice.
  test.setTimeout(240_000);
  // A finished conversation of today, so that no report is empty: a contact writes on the demo API
  // channel, the demo agent takes it, answers twice and finishes it.
  const agent = await signedInPage(browser, demo('agent'));
  await agent.goto('/app');
  const channel = await demoApiChannel(agent.request);
  const name = `Reports ${Date.now()}`;
  const phone = `+55118${String(Date.now()).slice(-8)}`;
  await sendContactMessage(agent.request, channel, 'demo-api-channel-token', {
    contact: { phone, name },
    message: { id: `e2e-reports-${Date.now()}`, content: 'A report, please' },
  });
  const mine = await acceptConversationOf(agent, phone);
  for (const content of ['Hello!', 'Here it is.']) {
    expect((await agent.request.post(`/api/v1/conversations/${mine.uuid}/messages`, { data: { content } })).status()).toBeLessThan(300);
  }
  expect((await agent.request.patch(`/api/v1/conversations/${mine.uuid}`, { data: { state: 'closed' } })).status()).toBe(200);
  await agent.context().close();

  const page = await signedInPage(browser, demo('manager'));
  const today = iso(new Date());
  for (const report of REPORTS) {
    // Today only (the contact filter narrows the chat history to the conversation made above).
    const contact = report.path === 'chat-history' ? `&contact=${encodeURIComponent(name)}` : '';
    await page.goto(`/admin/reports/${report.path}?start=${today}&end=${today}${contact}`);
    await expect(page.getByRole('heading', { name: report.title, exact: true })).toBeVisible();
    // The report type switch (weekday / hour) is kept in the query string as well.
    if (report.type) {
      await page.getByText(report.type, { exact: true }).click();
      await expect(page).toHaveURL(/report_type=hour/);
    }
    await page.getByRole('button', { name: 'Generate' }).click();
    const table = page.getByRole('table', { name: report.title, exact: true });
    // The bots report lists the passes under its table, which may say 'No data found' too: the first one is the report's.
    await expect(table.or(page.getByText('No data found')).first()).toBeVisible();
    const rows = (await table.isVisible()) ? await screenRows(page, report.title) : [];
    if (report.fed) expect(rows.length, `${report.title} rows`).toBeGreaterThan(0);
    // Every hour of the day has its row (and bar), empty ones too.
    if (report.type) expect(rows.map((r) => r[0])).toEqual(Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`));
    if (report.path === 'chat-history') {
      expect(rows.map((r) => r.includes(name))).toEqual([true]);
      // The row opens the conversation's history in a new tab.
      await expect(table.getByRole('link', { name: mine.uuid })).toHaveAttribute('href', `/chat-history/reports/${mine.uuid}`);
    }
    // The screen shows the first 500 rows; the files have them all.
    const truncated = await page.getByText('Only the first 500 rows are shown').isVisible();

    const csv = parse(await downloaded(page, /Download CSV/), { columns: false, bom: true }) as string[][];
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(new Uint8Array(await downloaded(page, /Download Excel/)).buffer);
    const sheet = book.worksheets[0]!;
    const excel: string[][] = [];
    // Excel holds times as date cells (the caller's wall-clock time) and numbers as numbers; read as the CSV writes them.
    const text = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 19).replace('T', ' ') : String(v ?? ''));
    sheet.eachRow({ includeEmpty: true }, (row) => excel.push(csv[0]!.map((_, i) => text(row.getCell(i + 1).value))));
    // The CSV and the sheet are the same table, header first; the screen shows the same rows in the same order.
    expect(excel, `${report.title} Excel = CSV`).toEqual(csv);
    const lines = csv.slice(1);
    if (truncated) expect(lines.length).toBeGreaterThan(rows.length);
    else expect(lines.length, `${report.title} CSV rows`).toBe(rows.length);
    for (const [i, row] of rows.entries())
      expect(same(row, lines[i]!), `${report.title} row ${i}: ${row.join('|')} vs ${lines[i]!.join('|')}`).toBe(true);
  }
});

test('the report filter rules block generating and downloading', async ({ browser }) => {
  const page = await signedInPage(browser, demo('manager'));
  await page.goto('/admin/reports/chat-history?start=2026-01-01&end=2026-03-01');
  await expect(page.getByText('O intervalo máximo é de 31 dias.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate' })).toBeDisabled();
  // The disabled buttons say why.
  await page.getByRole('button', { name: 'Generate' }).hover({ force: true });
  await expect(page.getByText('Fix all the errors before generating this report')).toBeVisible();
  await page.getByText('Download CSV').hover({ force: true });
  await expect(page.getByText('Fix all the errors before downloading this report')).toBeVisible();
  await page.goto('/admin/reports/chat-history');
  await page.getByRole('textbox', { name: 'Contact' }).fill('ab');
  await expect(page.getByText('Filter contact should have at least 3 characters')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Generate' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Contact' }).fill('');
  await expect(page.getByRole('button', { name: 'Generate' })).toBeEnabled();
  // The campaign report checks the same rules before asking (packages/core). Campaigns belong to
  // campaign_manager and admin, not manager (the role matrix's stricter reading, docs/roles.md).
  const campaigns = await signedInPage(browser, demo('campaigns'));
  await campaigns.goto('/admin/campaigns/report?start=2026-01-01&end=2026-03-01');
  await expect(campaigns.getByText('O intervalo máximo é de 31 dias.')).toBeVisible();
  await expect(campaigns.getByText('Fix all the errors before generating this report')).toBeVisible();
  await expect(campaigns.getByRole('table', { name: 'Summary' })).toHaveCount(0);
  // A supervisor does not get the manager's login history.
  const supervisor = await signedInPage(browser, demo('supervisor'));
  await supervisor.goto('/admin/reports/login-history');
  await expect(supervisor.getByText('Você não tem permissão para acessar essa página')).toBeVisible();
});
