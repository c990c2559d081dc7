import { expect, type Browser, type Page } from '@playwright/test';

export const PASSWORD = 'atende123';
export const demo = (local: string) => `${local}@demo.atende.dev`;

export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A separate browser (own cookies) signed in as `email`. */
export async function signedInPage(browser: Browser, email: string, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await signIn(page, email);
  await expect(page).not.toHaveURL(/\/login/);
  return page;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: false });
}
