import type { Message } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { replyWindowClosed } from './replyWindow';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3600_000).toISOString();
const message = (author: Message['author'], when: string) => ({ author, when }) as Message;

describe('reply window in the composer (Meta takes replies within 24 hours of the contact)', () => {
  it('closes on Messenger and Instagram 24 hours after the contact last wrote, agent messages not counting', () => {
    const page = { messages: [message('CONTACT', hoursAgo(25)), message('USER', hoursAgo(1))], hasMore: false };
    expect(replyWindowClosed({ type: 'messenger' }, page, NOW)).toBe(true);
    expect(replyWindowClosed({ type: 'instagram' }, page, NOW)).toBe(true);
    expect(
      replyWindowClosed({ type: 'messenger' }, { messages: [...page.messages, message('CONTACT', hoursAgo(23))], hasMore: false }, NOW),
    ).toBe(false);
  });

  it('stays open on channels without a window, and when the contact’s last message is on an older page', () => {
    const old = { messages: [message('CONTACT', hoursAgo(48))], hasMore: false };
    expect(replyWindowClosed({ type: 'telegram' }, old, NOW)).toBe(false);
    expect(replyWindowClosed({ type: 'custom' }, old, NOW)).toBe(false);
    expect(replyWindowClosed({ type: 'messenger' }, { messages: [message('USER', hoursAgo(1))], hasMore: true }, NOW)).toBe(false);
    expect(replyWindowClosed({ type: 'messenger' }, { messages: [message('USER', hoursAgo(1))], hasMore: false }, NOW)).toBe(true);
    expect(replyWindowClosed({ type: 'messenger' }, undefined, NOW)).toBe(false);
  });

  it('lasts 7 days on a Messenger or Instagram channel with the Human Agent tag on', () => {
    const twoDays = { messages: [message('CONTACT', hoursAgo(48))], hasMore: false };
    const tagged = { type: 'messenger', settings: { human_agent_tag: 'true' } };
    expect(replyWindowClosed(tagged, twoDays, NOW)).toBe(false);
    expect(replyWindowClosed({ type: 'messenger', settings: { human_agent_tag: 'false' } }, twoDays, NOW)).toBe(true);
    expect(replyWindowClosed(tagged, { messages: [message('CONTACT', hoursAgo(8 * 24))], hasMore: false }, NOW)).toBe(true);
  });
});
