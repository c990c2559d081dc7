import type { Message } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { replyWindowClosed } from './replyWindow';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const hoursAgo = (h: number) => new Date(NOW - h * 3600_000).toISOString();
const message = (author: Message['author'], when: string) => ({ author, when }) as Message;

describe('reply window in the composer (Meta takes replies within 24 hours of the contact)', () => {
  it('closes on Messenger and Instagram 24 hours after the contact last wrote, agent messages not counting', () => {
    const page = { messages: [message('CONTACT', hoursAgo(25)), message('USER', hoursAgo(1))], hasMore: false };
    expect(replyWindowClosed('messenger', page, NOW)).toBe(true);
    expect(replyWindowClosed('instagram', page, NOW)).toBe(true);
    expect(replyWindowClosed('messenger', { messages: [...page.messages, message('CONTACT', hoursAgo(23))], hasMore: false }, NOW)).toBe(
      false,
    );
  });

  it('stays open on channels without a window, and when the contact’s last message is on an older page', () => {
    const old = { messages: [message('CONTACT', hoursAgo(48))], hasMore: false };
    expect(replyWindowClosed('telegram', old, NOW)).toBe(false);
    expect(replyWindowClosed('custom', old, NOW)).toBe(false);
    expect(replyWindowClosed('messenger', { messages: [message('USER', hoursAgo(1))], hasMore: true }, NOW)).toBe(false);
    expect(replyWindowClosed('messenger', { messages: [message('USER', hoursAgo(1))], hasMore: false }, NOW)).toBe(true);
    expect(replyWindowClosed('messenger', undefined, NOW)).toBe(false);
  });
});
