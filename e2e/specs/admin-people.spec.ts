import { expect, test, type APIRequestContext, type PlaywrightWorkerArgs } from '@playwright/test';
import { demo, PASSWORD, signIn, signedInPage } from './helpers';

// People and workspace: users, contacts and their rules,
// opening hours and the feature-flag guard of the admin routes.
// Everything a test creates carries its own random name, so reruns and other specs' data do not matter.

/** Letters only (user names take letters and spaces). */
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

async function apiSession(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string | undefined,
  local: string,
): Promise<APIRequestContext> {
  const session = await playwright.request.newContext({ baseURL });
  expect((await session.post('/api/v1/login', { form: { email: demo(local), password: PASSWORD } })).ok()).toBe(true);
  return session;
}

test('the demo admin creates a user, sees the validation messages and edits the roles', async ({ page, playwright, baseURL }) => {
  const suffix = letters(6);
  const name = `Pessoa ${suffix}`;
  const email = `pessoa.${suffix}@demo.atende.dev`;
  await signIn(page, demo('admin'));
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin/settings');
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  // The demo users are listed with their roles as tags.
  const adminRow = page.getByRole('row').filter({ hasText: demo('admin') });
  await expect(adminRow.getByRole('list', { name: 'Roles' }).getByText('Admin', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByLabel('Name').fill('Jo2');
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByLabel(/^Password/).fill('abcdefgh');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Name must contain only letters and spaces')).toBeVisible();
  await expect(dialog.getByText('Please insert a valid e-mail')).toBeVisible();
  await expect(dialog.getByText('Password must contain at least one number')).toBeVisible();
  await expect(dialog.getByText('Select at least one role')).toBeVisible();
  // An admin is not offered tenant_admin or owner (the api refuses them too).
  await expect(dialog.getByRole('checkbox', { name: 'Tenant Admin' })).toHaveCount(0);
  await expect(dialog.getByRole('checkbox', { name: 'Owner' })).toHaveCount(0);

  // A taken email is answered by the server: 'Email already being used'.
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(demo('agent'));
  await dialog.getByLabel(/^Password/).fill('segredo123');
  await dialog.getByRole('checkbox', { name: 'Agent' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Email already being used')).toBeVisible();

  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText(name);
  await expect(row.getByRole('list', { name: 'Roles' })).toHaveText('Agent');

  // Edit: add Supervisor; the tags follow.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit user' });
  await expect(edit.getByText('Changing the roles signs the user out: the new roles apply from their next sign-in.')).toBeVisible();
  await edit.getByRole('checkbox', { name: 'Supervisor' }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User updated successfully')).toBeVisible();
  await expect(row.getByRole('list', { name: 'Roles' })).toHaveText(/Agent\s*Supervisor/);

  // The new user signs in (a fresh session, apart from the admin's browser) with the new roles.
  const newcomer = await playwright.request.newContext({ baseURL });
  const res = await newcomer.post('/api/v1/login', { form: { email, password: 'segredo123' } });
  expect(((await res.json()) as { data: { roles: string[] } }).data.roles.sort()).toEqual(['agent', 'supervisor']);
  await newcomer.dispose();

  // Delete with confirmation.
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete user' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('User deleted successfully')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0);
});

test('the demo admin searches a contact, pages the list and edits it with the customer rules', async ({ page, playwright, baseURL }) => {
  const name = `Contato ${letters(8)}`;
  const admin = await apiSession(playwright, baseURL, 'admin');
  const created = await admin.post('/api/v1/contacts', {
    data: { name, phone1: `+55219${String(Date.now()).slice(-8)}`, organization: 'Acme' },
  });
  expect(created.status()).toBe(201);
  await admin.dispose();

  await signIn(page, demo('admin'));
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin/contacts');
  await expect(page.getByRole('heading', { name: 'Contacts', level: 3 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Contacts' })).toBeVisible();
  // Page sizes 10, 20, 40.
  await page.getByRole('textbox', { name: 'Rows per page' }).click();
  await page.getByRole('option', { name: '20' }).click();
  await expect(page.getByRole('textbox', { name: 'Rows per page' })).toHaveValue('20');

  // Search needs 3 characters.
  await page.getByLabel('Name').fill('Co');
  await expect(page.getByText('Should have at least 3 characters')).toBeVisible();
  await page.getByLabel('Name').fill(name);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(page.getByRole('table', { name: 'Contacts' }).getByRole('row')).toHaveCount(2);

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit contact' });
  await expect(dialog.getByLabel('Phone 1')).toHaveAttribute('readonly', '');
  await dialog.getByLabel('Organization').fill('');
  await dialog.getByLabel('Email').fill('bad-email');
  // Leaving Organization showed its message (validated once touched); pressing Save checks the rest.
  await expect(dialog.getByText('Required')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Please insert a valid e-mail')).toBeVisible();
  await dialog.getByLabel('Organization').fill('Globex');
  await dialog.getByLabel('Email').fill('Cliente@Example.com');
  await expect(dialog.getByLabel('Email')).toHaveValue('cliente@example.com');
  // The messages go as the fields are corrected, before Save is pressed.
  await expect(dialog.getByText('Required')).toBeHidden();
  await expect(dialog.getByText('Please insert a valid e-mail')).toBeHidden();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Contact successfully updated')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Globex');
  await expect(row).toContainText('cliente@example.com');

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete contact' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Contact deleted successfully')).toBeVisible();
  await expect(page.getByText('No contacts found')).toBeVisible();
});

test('the demo admin saves opening hours, after the validation messages', async ({ page, playwright, baseURL }) => {
  await signIn(page, demo('admin'));
  await expect(page).toHaveURL(/\/admin/);
  await page.goto('/admin/settings');
  await page.getByRole('link', { name: 'Opening hours' }).click();
  const form = page.getByRole('form', { name: 'Opening hours' });
  await expect(form).toBeVisible();
  // The reply stays off, so the conversations of other specs never get it.
  await expect(form.getByRole('switch', { name: 'Send the out-of-hours message' })).not.toBeChecked();

  const days = form.getByRole('group', { name: 'Weekdays' });
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
    await days.getByRole('checkbox', { name: day }).uncheck();
  await form.getByRole('textbox', { name: /^Out-of-hours message/ }).fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Select at least one weekday')).toBeVisible();
  await expect(form.getByText('Message is required')).toBeVisible();

  const message = `Fechados agora ${letters(5)}`;
  await days.getByRole('checkbox', { name: 'Monday' }).check();
  await days.getByRole('checkbox', { name: 'Saturday' }).check();
  await form.getByLabel('Saturday start 1').fill('09:00');
  await form.getByLabel('Saturday end 1').fill('13:00');
  await form.getByRole('textbox', { name: /^Out-of-hours message/ }).fill(message);
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Opening hours saved')).toBeVisible();

  await page.reload();
  await expect(page.getByRole('textbox', { name: /^Out-of-hours message/ })).toHaveValue(message);
  await expect(page.getByLabel('Saturday end 1')).toHaveValue('13:00');
  const admin = await apiSession(playwright, baseURL, 'admin');
  const saved = (
    (await (await admin.get('/api/v1/workspaces/me/opening_hours')).json()) as { data: { enabled: boolean; days: { weekday: string }[] } }
  ).data;
  expect(saved.enabled).toBe(false);
  expect(saved.days.map((d) => d.weekday)).toEqual(['monday', 'saturday']);
  await admin.dispose();
});

test('the demo tenant admin turns a feature off and on: the guarded admin route disappears and reappears', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const tenantAdmin = await signedInPage(browser, demo('tenants'));
  const toggle = async (on: boolean) => {
    await tenantAdmin.goto('/admin/tenants');
    await tenantAdmin.getByRole('table', { name: 'Tenants' }).getByRole('link', { name: 'Demo', exact: true }).click();
    const flag = tenantAdmin.getByRole('switch', { name: /Canned responses/ });
    await expect(flag).toBeChecked({ checked: !on });
    // The switch follows the saved tenant, so it flips once the server answered.
    await flag.click();
    await expect(tenantAdmin.getByText('Feature updated')).toBeVisible();
    await expect(flag).toBeChecked({ checked: on });
  };
  try {
    await toggle(false);
    await signIn(page, demo('admin'));
    await expect(page).toHaveURL(/\/admin/);
    await page.goto('/admin/settings');
    await expect(page.getByRole('link', { name: 'Opening hours' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Canned responses' })).toHaveCount(0);
    await page.goto('/admin/settings/canned-responses');
    await expect(page.getByText('Funcionalidade não ativada')).toBeVisible();
    await expect(page).not.toHaveURL(/canned-responses/);

    await toggle(true);
    await page.goto('/admin/settings');
    await page.getByRole('link', { name: 'Canned responses' }).click();
    await expect(page).toHaveURL(/\/admin\/settings\/canned-responses/);
    await expect(page.getByRole('heading', { name: 'Canned responses' })).toBeVisible();
  } finally {
    // Other specs expect every feature on: put it back even when an assertion failed.
    const session = await apiSession(playwright, baseURL, 'tenants');
    const me = ((await (await session.get('/api/v1/tenants/me')).json()) as { data: { uuid: string } }).data;
    expect((await session.post(`/api/v1/tenants/${me.uuid}/configure`, { data: { features: { canned_responses: true } } })).ok()).toBe(
      true,
    );
    await session.dispose();
    await tenantAdmin.context().close();
  }
});

test('the demo admin edits the workspace settings within their ranges', async ({ page, playwright, baseURL }) => {
  const admin = await apiSession(playwright, baseURL, 'admin');
  type Ws = {
    conversation_delivery_mode: string;
    max_conversation_per_user: number;
    archived_conversation_behavior_on_new_messages: string;
  };
  const before = ((await (await admin.get('/api/v1/workspaces/me')).json()) as { data: Ws }).data;
  try {
    await signIn(page, demo('admin'));
    await expect(page).toHaveURL(/\/admin/);
    await page.goto('/admin/settings');
    await page.getByRole('link', { name: 'Workspace' }).click();
    const form = page.getByRole('form', { name: 'Workspace' });
    await expect(form.getByLabel('Maximum conversations per agent')).toHaveValue(String(before.max_conversation_per_user));
    await form.getByLabel('Maximum conversations per agent').fill('0');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Must be at least 1')).toBeVisible();
    await form.getByLabel('Maximum conversations per agent').fill('101');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Must be at most 100')).toBeVisible();

    // The delivery mode is shown; it is left as seeded (an automatic mode would hand the queue to
    // signed-in agents of other specs), while the other two settings change.
    await expect(form.getByRole('radio', { checked: true })).toHaveAttribute('value', before.conversation_delivery_mode);
    await expect(form.getByRole('radio')).toHaveCount(3);
    await form.getByLabel('Maximum conversations per agent').fill('12');
    await form.getByRole('textbox', { name: 'When an archived conversation gets a new message' }).click();
    await page.getByRole('option', { name: 'Keep the conversation archived' }).click();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Workspace saved')).toBeVisible();
    const saved = ((await (await admin.get('/api/v1/workspaces/me')).json()) as { data: Ws }).data;
    expect(saved).toMatchObject({ max_conversation_per_user: 12, archived_conversation_behavior_on_new_messages: 'keep_archived' });
  } finally {
    // Distribution in other specs relies on the workspace as seeded.
    const res = await admin.patch('/api/v1/workspaces/me', {
      data: {
        conversation_delivery_mode: before.conversation_delivery_mode,
        max_conversation_per_user: before.max_conversation_per_user,
        archived_conversation_behavior_on_new_messages: before.archived_conversation_behavior_on_new_messages,
      },
    });
    expect(res.ok()).toBe(true);
    await admin.dispose();
  }
});

// An admin sets a user's new password; the user's open session ends and only the new password signs in.
test('the demo admin sets a new password for a user, whose session ends at once', async ({ browser }) => {
  const admin = await signedInPage(browser, demo('admin'));
  const suffix = Date.now()
    .toString(36)
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
  const email = `reset.${suffix}@demo.atende.dev`;
  const name = `Reset Target ${suffix}`;
  // A supervisor: signed in, it takes no chats from the shared demo queue.
  const created = await admin.request.post('/api/v1/users', { data: { username: name, email, password: PASSWORD, roles: ['supervisor'] } });
  expect(created.status()).toBe(201);
  const user = await signedInPage(browser, email);

  await admin.goto('/admin/settings/users');
  await admin.getByRole('button', { name: `Set a new password for ${name}` }).click();
  const dialog = admin.getByRole('dialog', { name: `Set a new password for ${name}` });
  await dialog.getByLabel('New password').fill('curta');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Password must have at least 8 characters')).toBeVisible();
  await dialog.getByLabel('New password').fill('segunda22');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('Password changed successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The user's browser is sent to sign in; the old password no longer works, the new one does.
  await expect(user).toHaveURL(/\/login/, { timeout: 20_000 });
  await signIn(user, email, PASSWORD);
  await expect(user.getByRole('alert')).toBeVisible();
  await expect(user).toHaveURL(/\/login/);
  await signIn(user, email, 'segunda22');
  await expect(user).not.toHaveURL(/\/login/);
  await admin.context().close();
  await user.context().close();
});
