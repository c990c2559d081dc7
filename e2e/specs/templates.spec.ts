import { execFileSync } from 'node:child_process';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { demo, screenshot, signedInPage } from './helpers';

/**
 * The WhatsApp template manager against the demo "WhatsApp" channel, whose
 * provider is the 360dialog simulator the e2e stack runs on E2E_PORT + 2: templates are really
 * submitted there, and approved there.
 */
const PROVIDER = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 2}`;
const PAGE = '/admin/campaigns/whatsapp-templates';
const DATABASE = `${process.env.E2E_POSTGRES ?? 'postgresql://postgres@127.0.0.1:5432'}/${process.env.E2E_DATABASE ?? 'atende_e2e'}`;

async function pick(page: Page, field: Locator, option: string) {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openNewTemplate(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'New template' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Step 1 of 2')).toBeVisible();
  return dialog;
}

test('a campaign manager creates a template; the provider approves it and the list turns green by itself', async ({ browser }) => {
  const page = await signedInPage(browser, demo('campaigns'));
  await page.goto(PAGE);
  const name = `pedido_pronto_${Date.now() % 100_000}`;
  // Other specs leave templates behind: the list is narrowed to this one by the name filter.
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await expect(page.getByText('No templates found')).toBeVisible();

  const dialog = await openNewTemplate(page);
  await pick(page, dialog.getByRole('textbox', { name: 'Channel' }), 'WhatsApp');
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByText('Media and interactive').click();
  await dialog.getByRole('switch', { name: 'Header' }).check();
  await dialog.getByRole('textbox', { name: 'Header text' }).fill('Olá {{1}}!');
  await dialog.getByRole('textbox', { name: 'Body' }).fill('Seu pedido {{1}} chega {{2}}.');
  await dialog.getByRole('switch', { name: 'Buttons' }).check();
  await dialog.getByRole('button', { name: 'Add button' }).click();
  await dialog.getByRole('textbox', { name: 'Button 1 text' }).fill('Confirmar');
  await dialog.getByRole('button', { name: 'Add button' }).click();
  await dialog.getByRole('textbox', { name: 'Button 2 text' }).fill('Falar com atendente');
  await dialog.getByRole('button', { name: 'Next' }).click();

  // Step 2: an example per variable; the preview fills them in.
  await expect(dialog.getByText('Step 2 of 2')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Header variable 1' }).fill('Maria');
  await dialog.getByRole('textbox', { name: 'Body variable 1' }).fill('#4521');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Body variable 2' }).fill('amanhã');
  // Back keeps the examples.
  await dialog.getByRole('button', { name: 'Back' }).click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Body variable 2' })).toHaveValue('amanhã');
  const preview = dialog.getByRole('figure', { name: 'Message preview' });
  await expect(preview).toContainText('Olá Maria!');
  await expect(preview).toContainText('Seu pedido #4521 chega amanhã.');
  await screenshot(page, 'template-form-step2');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Template criado com sucesso')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // PENDING (amber) until the provider decides.
  const row = page.getByRole('table', { name: 'Templates' }).getByRole('row', { name: new RegExp(name) });
  await expect(row.getByText('PENDING')).toBeVisible();
  await expect(row.locator('[data-tone="paused"]')).toBeVisible();
  // The worker submitted it to the provider.
  await expect
    .poll(async () =>
      ((await (await page.request.get(`${PROVIDER}/_simulator/templates`)).json()) as { templates: { name: string }[] }).templates.map(
        (t) => t.name,
      ),
    )
    .toContain(name);
  const approved = await page.request.post(`${PROVIDER}/_simulator/templates/status`, { data: { name, status: 'APPROVED' } });
  expect(approved.status()).toBe(204);
  // No reload: the status webhook reaches the list through the realtime event.
  await expect(row.getByText('APPROVED')).toBeVisible();
  await expect(row.locator('[data-tone="online"]')).toBeVisible();

  // The preview renders the bubble with the examples and the buttons.
  await row.getByRole('button', { name: `Preview ${name}` }).click();
  const previewDialog = page.getByRole('dialog', { name });
  await expect(previewDialog.getByRole('figure', { name: 'Message preview' })).toContainText('Seu pedido #4521 chega amanhã.');
  await expect(previewDialog.getByText('Confirmar')).toBeVisible();
  await expect(previewDialog.getByText('Falar com atendente')).toBeVisible();
  await screenshot(page, 'template-preview');
  await previewDialog.getByRole('button', { name: 'Close' }).click();

  // Delete asks first.
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(page.getByText('Are you sure? This cannot be undone.')).toBeVisible();
  await page.getByRole('dialog', { name: 'Delete template' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Template deletado com sucesso')).toBeVisible();
  await expect(page.getByText('No templates found')).toBeVisible();
  await page.context().close();
});

test('each rule of the template form shows its message', async ({ browser }) => {
  const page = await signedInPage(browser, demo('campaigns'));
  await page.goto(PAGE);
  const dialog = await openNewTemplate(page);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('Channel is required')).toBeVisible();
  await pick(page, dialog.getByRole('textbox', { name: 'Channel' }), 'WhatsApp');
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Bad Name');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('Name can only contain lower case alphanumeric characters and underscores')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Name' }).fill('regras');
  await dialog.getByRole('textbox', { name: 'Body' }).fill('x'.repeat(1025));
  await expect(dialog.getByText('1024 maximum characters')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Body' }).fill('Olá');
  await dialog.getByText('Media and interactive').click();
  await dialog.getByRole('switch', { name: 'Header' }).check();
  await dialog.getByRole('textbox', { name: 'Header text' }).fill('h'.repeat(61));
  await dialog.getByRole('switch', { name: 'Footer' }).check();
  await expect(dialog.getByText('60 characters maximum')).toBeVisible();
  await expect(dialog.getByText('This field is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Header text' }).fill('Oi');
  await dialog.getByRole('textbox', { name: 'Footer text' }).fill('f'.repeat(61));
  await expect(dialog.getByText('60 characters maximum')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Footer text' }).fill('Equipe');
  await dialog.getByRole('switch', { name: 'Buttons' }).check();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('At least one button is required')).toBeVisible();
  for (const n of [1, 2, 3]) {
    await dialog.getByRole('button', { name: 'Add button' }).click();
    await dialog.getByRole('textbox', { name: `Button ${n} text` }).fill(`Opção ${n}`);
  }
  // At most 3 quick replies.
  await expect(dialog.getByRole('button', { name: 'Add button' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Button 1 text' }).fill('Sim.');
  await expect(dialog.getByText('Pontos não são permitidos')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Button 1 text' }).fill('b'.repeat(26));
  await expect(dialog.getByText('25 characters maximum')).toBeVisible();
  // Call to action: changing the type clears the buttons; at most 2.
  await pick(page, dialog.getByRole('textbox', { name: 'Buttons type' }), 'Call to action');
  await expect(dialog.getByRole('textbox', { name: 'Button 1 text' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Add button' }).click();
  await dialog.getByRole('button', { name: 'Add button' }).click();
  await expect(dialog.getByRole('button', { name: 'Add button' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('This field is required').first()).toBeVisible();
  // Standard resets the components to the body only.
  await dialog.getByText('Standard (text only)').click();
  await expect(dialog.getByRole('switch', { name: 'Header' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('No variables are used in this template')).toBeVisible();
  await page.context().close();
});

test('authentication templates cannot be edited; other templates edit with channel, name and category locked', async ({ browser }) => {
  const page = await signedInPage(browser, demo('campaigns'));
  // Templates of the custom API channel need no provider review; an authentication one is synced from
  // a provider (the form never creates one), so it is made through the api as the provider would list it.
  const channels = (await (await page.request.get('/api/v1/channels?_limit=0')).json()) as { data: { uuid: string; type: string }[] };
  const api = channels.data.find((c) => c.type === 'custom')!;
  const created = await page.request.post(`/api/v1/channels/${api.uuid}/outbound_templates`, {
    data: {
      name: 'aviso_entrega',
      category: 'UTILITY',
      language: 'pt_BR',
      components: [{ type: 'BODY', text: 'Seu pedido saiu para entrega.' }],
    },
  });
  expect(created.status()).toBe(201);
  const authentication = await page.request.post(`/api/v1/channels/${api.uuid}/outbound_templates`, {
    data: {
      name: 'codigo_acesso',
      category: 'AUTHENTICATION',
      language: 'pt_BR',
      components: [{ type: 'BODY', text: 'Seu código é {{1}}' }],
    },
  });
  // The api applies the same rule as the form.
  expect(authentication.status()).toBe(400);
  expect(((await authentication.json()) as { error_message: string }).error_message).toBe(
    'Authentication templates cannot be created here',
  );

  await page.goto(PAGE);
  const row = page.getByRole('table', { name: 'Templates' }).getByRole('row', { name: /aviso_entrega/ });
  await expect(row.getByText('APPROVED')).toBeVisible();
  await row.getByRole('button', { name: 'Edit aviso_entrega' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeDisabled();
  await expect(dialog.getByRole('textbox', { name: 'Channel' })).toBeDisabled();
  await expect(dialog.getByRole('textbox', { name: 'Category' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Body' }).fill('Seu pedido saiu para entrega hoje.');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByText('Template editado com sucesso')).toBeVisible();
  await expect(row).toContainText('Seu pedido saiu para entrega hoje.');

  // An authentication template, as the provider's list brings it (written straight into the stack's
  // database: neither the form nor the api creates one), cannot be edited.
  execFileSync('psql', [
    DATABASE,
    '-v',
    'ON_ERROR_STOP=1',
    '-q',
    '-c',
    `
    INSERT INTO "OutboundTemplate" (id, "tenantId", "channelId", name, language, category, status, components, "updatedAt")
    SELECT gen_random_uuid(), c."tenantId", c.id, 'codigo_acesso', 'pt_BR', 'AUTHENTICATION', 'APPROVED', '[{"type":"BODY","text":"Seu código é {{1}}"}]', now()
    FROM "Channel" c WHERE c.id = '${api.uuid}'`,
  ]);
  await page.reload();
  const auth = page.getByRole('table', { name: 'Templates' }).getByRole('row', { name: /codigo_acesso/ });
  await auth.getByRole('button', { name: 'Edit codigo_acesso' }).click();
  await expect(page.getByText('Templates da categoria Autenticação não podem ser editados')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.context().close();
});
