import { describe, expect, it } from 'vitest';
import { ME, message } from './fixtures.test-support';
import {
  applyAck,
  applySendAnswer,
  awaitingAnswer,
  firstUnreadUuid,
  mergeLatestPage,
  optimisticMessage,
  prependMessages,
  setStatus,
  unreadContactMessages,
  upsertMessages,
} from './messageCache';

describe('message cache', () => {
  it('replaces the optimistic copy by the server copy with the same uuid, never duplicating', () => {
    const local = optimisticMessage({ uuid: 'u-1', conversationUuid: 'c', content: 'Olá', internal: false, replyToUuid: null, user: ME });
    expect(local).toMatchObject({ status: 'sending', state: 'pending', author: 'USER' });
    const page = { messages: [message({ when: '2026-11-22T09:00:00.000Z' }), local], hasMore: false };
    const server = { ...local, status: null, state: 'sent' as const };
    const next = upsertMessages(page, [server]);
    expect(next.messages).toHaveLength(2);
    expect(next.messages[1]).toEqual(server);
    // The same message arriving again by the live event changes nothing.
    expect(upsertMessages(next, [server]).messages).toHaveLength(2);
  });

  it('never takes a delivery state back when the send answer arrives after its ack', () => {
    const sent = message({ author: 'USER', state: 'sent', status: null });
    const stale = { ...sent, state: 'pending' as const, status: 'sending' as const };
    expect(upsertMessages({ messages: [sent], hasMore: false }, [stale]).messages[0]).toMatchObject({ state: 'sent', status: null });
    // A retry of a failed message (same state) does take the new status.
    const failed = { ...stale, status: 'failed' as const };
    expect(upsertMessages({ messages: [failed], hasMore: false }, [stale]).messages[0]!.status).toBe('sending');
  });

  it('shows only the unanswered optimistic copy as waiting, not the server copy still being delivered', () => {
    const local = optimisticMessage({ uuid: 'u-3', conversationUuid: 'c', content: 'x', internal: false, replyToUuid: null, user: ME });
    expect(awaitingAnswer('u-3')).toBe(true);
    const page = applySendAnswer({ messages: [local], hasMore: false }, [{ ...local, status: 'sending' }]);
    expect(page.messages[0]!.status).toBe('sending');
    expect(awaitingAnswer('u-3')).toBe(false);
    setStatus(page, 'u-3', 'sending');
    expect(awaitingAnswer('u-3')).toBe(true);
    setStatus(page, 'u-3', 'failed');
    expect(awaitingAnswer('u-3')).toBe(false);
  });

  it('keeps the failure an ack reported before the send answered', () => {
    const local = optimisticMessage({ uuid: 'u-2', conversationUuid: 'c', content: 'x', internal: false, replyToUuid: null, user: ME });
    const page = { messages: [local], hasMore: false };
    const failedByAck = applyAck(page, [{ uuid: 'u-2', state: 'pending', status: 'failed' }]);
    const answered = applySendAnswer(failedByAck, [{ ...local, status: 'sending' }]);
    expect(answered.messages[0]!.status).toBe('failed');
    // Without an ack first, the answer replaces the optimistic copy.
    expect(applySendAnswer(page, [{ ...local, status: null, state: 'sent' }]).messages[0]).toMatchObject({ status: null, state: 'sent' });
  });

  it('keeps time order when a late message arrives', () => {
    const a = message({ when: '2026-11-22T10:00:00.000Z' });
    const c = message({ when: '2026-11-22T10:02:00.000Z' });
    const b = message({ when: '2026-11-22T10:01:00.000Z' });
    expect(upsertMessages({ messages: [a, c], hasMore: false }, [b]).messages).toEqual([a, b, c]);
  });

  it('prepends earlier messages without repeating any', () => {
    const a = message();
    const b = message();
    const page = prependMessages({ messages: [b], hasMore: true }, [a, b], false);
    expect(page).toEqual({ messages: [a, b], hasMore: false });
  });

  // After a failed socket recovery the latest page is fetched again and merged.
  it('merges a reloaded latest page by uuid, keeping the earlier messages loaded and the unsent copies', () => {
    const [a, b, c] = ['10:00', '10:01', '10:02'].map((t) => message({ when: `2026-11-22T${t}:00.000Z` }));
    const missed = message({ when: '2026-11-22T10:04:00.000Z' });
    const failed = { ...message({ author: 'USER', when: '2026-11-22T10:03:00.000Z' }), status: 'failed' as const };
    const shown = { messages: [a!, b!, c!, failed], hasMore: false };
    const merged = mergeLatestPage(shown, { messages: [b!, { ...c!, state: 'read' }, missed], hasMore: true });
    expect(merged.messages.map((m) => m.uuid)).toEqual([a!.uuid, b!.uuid, c!.uuid, failed.uuid, missed.uuid]);
    expect(merged.messages[2]!.state).toBe('read');
    expect(merged.hasMore).toBe(false);
    // Reloading the same page again changes nothing.
    expect(mergeLatestPage(merged, { messages: [b!, c!, missed], hasMore: true }).messages).toHaveLength(5);
  });

  it('drops the shown messages a reloaded page no longer reaches, rather than leaving a hole', () => {
    const old = message({ when: '2026-11-22T09:00:00.000Z' });
    const sending = optimisticMessage({
      uuid: 'u-4',
      conversationUuid: 'c',
      content: 'x',
      internal: false,
      replyToUuid: null,
      user: ME,
      now: new Date('2026-11-22T09:30:00.000Z'),
    });
    const latest = {
      messages: [message({ when: '2026-11-22T10:00:00.000Z' }), message({ when: '2026-11-22T10:01:00.000Z' })],
      hasMore: true,
    };
    const merged = mergeLatestPage({ messages: [old, sending], hasMore: false }, latest);
    expect(merged.messages.map((m) => m.uuid)).toEqual([sending.uuid, ...latest.messages.map((m) => m.uuid)]);
    expect(merged.hasMore).toBe(true);
  });

  it('applies acks in bulk by uuid and marks failures', () => {
    const a = message({ author: 'USER', state: 'pending' });
    const b = message({ author: 'USER', state: 'pending' });
    const page = { messages: [a, b], hasMore: false };
    const acked = applyAck(page, [{ uuid: b.uuid, state: 'read', status: null }]);
    expect(acked.messages.map((m) => m.state)).toEqual(['pending', 'read']);
    expect(applyAck(acked, [{ uuid: 'unknown', state: 'sent', status: null }])).toBe(acked);
    expect(setStatus(page, a.uuid, 'failed').messages[0]!.status).toBe('failed');
  });

  it("takes a failure's reason and finality, and a delivery, from an ack; an ack without them keeps what the message had", () => {
    const a = message({ author: 'USER', state: 'pending' });
    const page = { messages: [a], hasMore: false };
    const refused = applyAck(page, [
      { uuid: a.uuid, state: 'pending', status: 'failed', error_message: "(#21211) Invalid 'To' Phone Number", retryable: false },
    ]);
    expect(refused.messages[0]).toMatchObject({ status: 'failed', error_message: "(#21211) Invalid 'To' Phone Number", retryable: false });
    const delivered = applyAck(page, [{ uuid: a.uuid, state: 'sent', status: null, delivered: true }]);
    expect(delivered.messages[0]).toMatchObject({ state: 'sent', delivered: true, retryable: true });
    expect(applyAck(delivered, [{ uuid: a.uuid, state: 'sent', status: null }])).toBe(delivered);
  });

  it("keeps a final failure's reason when the send's answer comes after its ack", () => {
    const sending = message({ author: 'USER', state: 'pending', status: 'sending' });
    const acked = applyAck({ messages: [sending], hasMore: false }, [
      { uuid: sending.uuid, state: 'pending', status: 'failed', error_message: 'Webhook answered HTTP 400 Bad Request', retryable: false },
    ]);
    const answered = applySendAnswer(acked, [{ ...sending, status: 'sending', error_message: null, retryable: true }]);
    expect(answered.messages[0]).toMatchObject({
      status: 'failed',
      error_message: 'Webhook answered HTTP 400 Bad Request',
      retryable: false,
    });
  });

  it("lists the contact's unread messages only", () => {
    const unread = message({ author: 'CONTACT', state: 'sent' });
    const page = {
      messages: [message({ author: 'CONTACT', state: 'read' }), message({ author: 'USER', state: 'sent' }), unread],
      hasMore: false,
    };
    expect(unreadContactMessages(page)).toEqual([unread.uuid]);
  });

  // The 'New Messages' marker starts at the first unread contact message, and a
  // finished conversation has none.
  it('puts the new-messages marker at the first unread contact message, never in a closed conversation', () => {
    const msgs = [
      message({ message: 'one' }),
      message({ author: 'USER', message: 'reply' }),
      message({ message: 'two' }),
      message({ message: 'three' }),
    ];
    expect(firstUnreadUuid(msgs, { state: 'answered', unread_contact_messages: 2 })).toBe(msgs[2]!.uuid);
    expect(firstUnreadUuid(msgs, { state: 'answered', unread_contact_messages: 9 })).toBe(msgs[0]!.uuid);
    expect(firstUnreadUuid(msgs, { state: 'answered', unread_contact_messages: 0 })).toBeNull();
    expect(firstUnreadUuid(msgs, { state: 'closed', unread_contact_messages: 2 })).toBeNull();
  });
});
