import { expect, type APIRequestContext, type Browser, type Locator, type Page } from '@playwright/test';
import { demo, signedInPage, takeAndOpen } from './helpers';

/** What the Meta simulator's pages sent (GET /_simulator/sent). */
export interface MetaSent {
  /** The page whose token sent it. */
  pageId: string;
  recipient: string;
  text: string | null;
  answeredStatus: number;
}

/**
 * A contact (a page-scoped id, no phone) writes to a page (`pageId`; the simulator's own page when
 * absent) at the Meta simulator `meta`; a demo agent takes the conversation, which is the channel's,
 * and opens it: the agent's page and its message log. The contact's name comes from the simulator's
 * profile lookup.
 */
export async function metaContactWrites(
  browser: Browser,
  request: APIRequestContext,
  meta: string,
  contact: { psid: string; firstName: string; lastName: string; text: string; pageId?: string; postback?: boolean },
  channelId: string,
): Promise<{ agent: Page; messages: Locator }> {
  // With `postback`, the contact presses a button (Get Started) titled `text` instead of writing it.
  const said = contact.postback ? { postback: contact.text } : { text: contact.text };
  const wrote = await request.post(`${meta}/_simulator/inbound`, {
    data: { id: contact.psid, first_name: contact.firstName, last_name: contact.lastName, page_id: contact.pageId, ...said },
  });
  expect(((await wrote.json()) as { webhook_status: number }).webhook_status).toBe(200);
  const name = `${contact.firstName} ${contact.lastName}`;
  const agent = await signedInPage(browser, demo('agent'));
  const { chat: mine, messages } = await takeAndOpen(agent, name);
  expect(mine.channel.uuid).toBe(channelId);
  await expect(messages.getByText(contact.text)).toBeVisible({ timeout: 30_000 });
  return { agent, messages };
}

export async function metaSent(request: APIRequestContext, meta: string): Promise<MetaSent[]> {
  return ((await (await request.get(`${meta}/_simulator/sent`)).json()) as { sent: MetaSent[] }).sent;
}
