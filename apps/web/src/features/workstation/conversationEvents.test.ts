import { describe, expect, it } from 'vitest';
import { applyConversationEvent, isStaleCopy, lastMeaningfulEntry, orderConversations } from './conversationEvents';
import { conversation, entry, ME, OTHER } from './fixtures.test-support';

const ref = (u: typeof ME) => ({ id: u.id, uuid: u.uuid, username: u.username, email: u.email });

// "Live update handling in the workstation".
describe('applyConversationEvent', () => {
  it('answered: replaces a listed conversation in place, without a notice', () => {
    const c = conversation();
    const updated = { ...c, unread_contact_messages: 3 };
    const out = applyConversationEvent([c], updated, ME.id, null);
    expect(out.list).toEqual([updated]);
    expect(out).toMatchObject({ arrived: false, notice: null, clearActive: false });
  });

  it('answered and new: added, its messages to load; a transfer to me is announced', () => {
    const c = conversation({
      history: [entry('transfer', { old_user: ref(OTHER), new_user: ref(ME) }), entry('associate-user', { new_user: ref(ME) })],
    });
    const out = applyConversationEvent([], c, ME.id, null);
    expect(out.list).toEqual([c]);
    expect(out).toMatchObject({ arrived: true, notice: 'transferred-to-me' });
  });

  it('answered through automatic distribution is announced as such', () => {
    const c = conversation({
      history: [
        entry('enter-queue', { event: 'new-conversation' }),
        entry('offered', { user_uuid: ME.uuid }),
        entry('associate-user'),
        entry('answered'),
      ],
    });
    expect(applyConversationEvent([], c, ME.id, null).notice).toBe('distributed-to-me');
  });

  it('transferred away from me: removed, the selection cleared and the agent told', () => {
    const c = conversation();
    const moved = {
      ...c,
      user: ref(OTHER),
      history: [entry('transfer', { old_user: ref(ME), new_user: ref(OTHER) }), entry('associate-user')],
    };
    const out = applyConversationEvent([c], moved, ME.id, c.uuid);
    expect(out.list).toEqual([]);
    expect(out).toMatchObject({ clearActive: true, notice: 'transferred-away' });
  });

  // One toast for the agent's own transfer to a sector (its success toast), and a
  // supervisor finishing the agent's open chat is announced.
  it('my own transfer to a sector is not announced back to me', () => {
    const c = conversation();
    const moved = {
      ...c,
      state: 'waiting' as const,
      user: null,
      history: [entry('transfer', { old_user: ref(ME), new_user: null, done_by_user: ref(ME) })],
    };
    expect(applyConversationEvent([c], moved, ME.id, c.uuid)).toMatchObject({ list: [], clearActive: true, notice: null });
    const bySupervisor = { ...moved, history: [entry('transfer', { old_user: ref(ME), new_user: null, done_by_user: ref(OTHER) })] };
    expect(applyConversationEvent([c], bySupervisor, ME.id, c.uuid).notice).toBe('transferred-away');
  });

  it('a supervisor finishing my open chat tells me; my own finish does not', () => {
    const c = conversation();
    const closedBy = (who: typeof ME, role: string) => ({
      ...c,
      state: 'closed' as const,
      history: [entry('closed', { ended_by: role, done_by_user: ref(who) })],
    });
    expect(applyConversationEvent([c], closedBy(OTHER, 'supervisor'), ME.id, c.uuid)).toMatchObject({
      list: [],
      notice: 'closed-by-supervisor',
    });
    expect(applyConversationEvent([c], closedBy(ME, 'agent'), ME.id, c.uuid).notice).toBeNull();
    // Not listed (already gone): nothing to say.
    expect(applyConversationEvent([], closedBy(OTHER, 'supervisor'), ME.id, null).notice).toBeNull();
  });

  it("another agent's conversation that was never mine changes nothing", () => {
    const mine = conversation();
    const theirs = conversation({ user: ref(OTHER) });
    const out = applyConversationEvent([mine], theirs, ME.id, mine.uuid);
    expect(out.list).toEqual([mine]);
    expect(out).toMatchObject({ clearActive: false, notice: null });
  });

  it('waiting: removed, and deselected only when it was the active one', () => {
    const a = conversation();
    const b = conversation();
    const returned = { ...a, state: 'waiting' as const, user: null };
    expect(applyConversationEvent([a, b], returned, ME.id, a.uuid)).toMatchObject({ list: [b], clearActive: true });
    expect(applyConversationEvent([a, b], returned, ME.id, b.uuid)).toMatchObject({ list: [b], clearActive: false });
  });

  it('closed: removed, unless its last message failed as a template', () => {
    const a = conversation();
    const b = conversation();
    expect(applyConversationEvent([a, b], { ...a, state: 'closed' }, ME.id, null).list).toEqual([b]);
    const failed = {
      ...a,
      state: 'closed' as const,
      last_message: { when: a.time_join, tags: ['template-send-error'], content: 'x', author: 'USER' as const },
    };
    expect(applyConversationEvent([a, b], failed, ME.id, null).list).toEqual([failed, b]);
  });

  it('closed and nothing left: the selection is cleared', () => {
    const a = conversation();
    expect(applyConversationEvent([a], { ...a, state: 'closed' }, ME.id, null).clearActive).toBe(true);
  });

  it('outbound-started: added and made active', () => {
    const c = conversation({ state: 'outbound-started', type: 'outbound', contact_interacted: false });
    expect(applyConversationEvent([], c, ME.id, null)).toMatchObject({ list: [c], activate: true, arrived: true });
    // Repeated (an update while already listed): replaced, not activated again.
    expect(applyConversationEvent([c], c, ME.id, c.uuid)).toMatchObject({ list: [c], activate: false });
  });
});

describe('lastMeaningfulEntry', () => {
  it('skips the bookkeeping written with a transfer or an assignment', () => {
    const transfer = entry('transfer');
    expect(lastMeaningfulEntry([transfer, entry('enter-queue', { event: 'transferring-conversation' })])).toBe(transfer);
    expect(lastMeaningfulEntry([transfer, entry('associate-user'), entry('answered')])).toBe(transfer);
    const back = entry('enter-queue', { event: 'update-conversation' });
    expect(lastMeaningfulEntry([transfer, back])).toBe(back);
    expect(lastMeaningfulEntry([])).toBeNull();
  });
});

describe('orderConversations', () => {
  it('puts pinned first in pin order, then the most recent activity', () => {
    const old = conversation({ time_answer: '2026-11-22T08:00:00.000Z' });
    const recent = conversation({ time_answer: '2026-11-22T09:00:00.000Z' });
    const talked = conversation({
      time_answer: '2026-11-22T07:00:00.000Z',
      last_message: { when: '2026-11-22T09:30:00.000Z', tags: [], content: 'x', author: 'CONTACT' },
    });
    expect(orderConversations([old, recent, talked], []).map((c) => c.uuid)).toEqual([talked.uuid, recent.uuid, old.uuid]);
    expect(orderConversations([old, recent, talked], [old.uuid, 'gone']).map((c) => c.uuid)).toEqual([old.uuid, talked.uuid, recent.uuid]);
  });
});

describe('isStaleCopy', () => {
  it('ignores a copy with less history than one already applied', () => {
    const c = conversation({ history: [entry('enter-queue'), entry('associate-user')] });
    expect(isStaleCopy(c)).toBe(false);
    const returned = { ...c, history: [...c.history, entry('enter-queue')] };
    expect(isStaleCopy(returned)).toBe(false);
    // The event of the earlier state arrives late: ignored.
    expect(isStaleCopy(c)).toBe(true);
    // Same history (an unread count changed): applied.
    expect(isStaleCopy({ ...returned, unread_contact_messages: 2 })).toBe(false);
  });
});
