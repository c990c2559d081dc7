import { expect, type Browser, type Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';

export const PASSWORD = 'atende123';
export const demo = (local: string) => `${local}@demo.atende.dev`;
const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));

/** Fills and sends the sign-in form (English interface). */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A separate browser context (own cookies and storage) signed in as `email`. */
export async function signedInPage(browser: Browser, email: string, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

/** Opens an entry of the avatar dropdown. */
export async function openUserMenuItem(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name }).click();
}

/** A screenshot for the README, in e2e/artifacts/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${artifacts}${name}.png` });
}
