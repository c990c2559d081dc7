import { expect, test, type Page } from '@playwright/test';
import { demo, openUserMenuItem, signIn } from './helpers';

async function openProfile(page: Page) {
  await openUserMenuItem(page, 'Profile');
  await expect(page.getByRole('dialog', { name: 'Profile' })).toBeVisible();
}

async function fill(page: Page, current: string, next: string, confirm: string) {
  const dialog = page.getByRole('dialog', { name: 'Profile' });
  await dialog.getByLabel('Current password').fill(current);
  await dialog.getByLabel('New password', { exact: true }).fill(next);
  await dialog.getByLabel('Confirm new password').fill(confirm);
  await dialog.getByRole('button', { name: 'Save' }).click();
}

// Minimum 8 characters, at least one number, letters required; current password
// required; confirmation must match; a 400 answer shows 'Wrong current password'. Uses the manager,
// whom no other spec signs in as, and puts the password back at the end.
test('the profile password change rejects bad inputs and then works', async ({ page, browser }) => {
  await signIn(page, demo('manager'));
  await expect(page).toHaveURL(/\/admin/);
  await openProfile(page);
  const dialog = page.getByRole('dialog', { name: 'Profile' });
  await expect(dialog.getByLabel('Email')).toHaveValue(demo('manager'));
  await expect(dialog.getByLabel('Email')).toHaveAttribute('readonly', '');
  await expect(dialog.getByLabel('Name')).toHaveAttribute('readonly', '');

  await fill(page, 'atende123', 'abc1', 'abc1');
  await expect(dialog.getByText('Password must have at least 8 characters')).toBeVisible();
  await fill(page, 'atende123', 'abcdefgh', 'abcdefgh');
  await expect(dialog.getByText('Password must contain at least one number')).toBeVisible();
  await fill(page, 'atende123', '12345678', '12345678');
  await expect(dialog.getByText('Password must contain letters')).toBeVisible();
  await fill(page, 'atende123', 'newpass123', 'newpass124');
  await expect(dialog.getByText('The passwords must match')).toBeVisible();
  await fill(page, '', 'newpass123', 'newpass123');
  await expect(dialog.getByText('Current password is required')).toBeVisible();
  await fill(page, 'not-my-password1', 'newpass123', 'newpass123');
  await expect(dialog.getByRole('alert')).toHaveText('Wrong current password');

  await fill(page, 'atende123', 'newpass123', 'newpass123');
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The new password signs in; put the old one back so the demo logins stay true.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, demo('manager'), 'newpass123');
  await expect(other).toHaveURL(/\/admin/);
  await openProfile(other);
  await fill(other, 'newpass123', 'atende123', 'atende123');
  await expect(other.getByText('Password changed successfully')).toBeVisible();
  await context.close();
});

// The QR login modal (flag qr_code_login) shows a code for the mobile app.
test('login via app shows a QR code', async ({ page }) => {
  await signIn(page, demo('agent2'));
  await expect(page).toHaveURL(/\/app$/);
  await openUserMenuItem(page, 'Login via app');
  const dialog = page.getByRole('dialog', { name: 'Login via app' });
  await expect(dialog.getByRole('img', { name: 'QR code to sign in with the app' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
});
