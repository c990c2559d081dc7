import { describe, expect, it } from 'vitest';
import { entry, message, ME } from './fixtures.test-support';
import { buildTimeline, dayLabel, listPreview, listTimestamp, systemPhrase } from './timeline';

const user = { id: ME.id, uuid: ME.uuid, username: ME.username, email: ME.email };

describe('systemPhrase', () => {
  it('words every shown event and hides the ones the spec hides', () => {
    expect(systemPhrase(entry('enter-queue', { event: 'transferring-conversation' }))).toBeNull();
    expect(systemPhrase(entry('new-priority', { old: null, new: 1 }))).toBeNull();
    expect(systemPhrase(entry('new-priority', { old: 0, new: 1 }))?.key).toBe('Conversation prioritised');
    expect(systemPhrase(entry('enter-queue', { event: 'logoff' }))?.key).toBe(
      'The conversation returned to the queue because the agent logged off',
    );
    expect(systemPhrase(entry('enter-queue', { event: 'something-else' }))?.key).toBe(
      'The conversation entered the queue (unknown reason)',
    );
    expect(
      systemPhrase(entry('closed', { ended_by: 'agent', done_by_user: user, end_reason: { uuid: ME.uuid, name: 'Resolvido' } })),
    ).toEqual({
      key: 'Closed by the agent {{user}}. Reason: {{reason}}',
      values: { user: 'Ana', reason: 'Resolvido' },
    });
    expect(systemPhrase(entry('closed', { ended_by: 'supervisor', done_by_user: user }))?.key).toBe('Closed by the supervisor {{user}}');
    expect(systemPhrase(entry('closed', {}))?.key).toBe('Conversation closed (unknown)');
    expect(systemPhrase(entry('transfer', { done_by_user: user, new_sector: { uuid: ME.uuid, name: 'Vendas' } }))).toEqual({
      key: 'Transferred by {{by}} to the sector {{sector}}',
      values: { by: 'Ana', sector: 'Vendas' },
    });
  });

  // A campaign's transfer named as such (it showed "Transferred by ? to the sector ?").
  it('names a campaign transfer and a campaign reply that was only shown', () => {
    expect(systemPhrase(entry('transfer', { done_by: 'campaign', new_sector: { uuid: ME.uuid, name: 'Vendas' } }))).toEqual({
      key: 'Transferred by the campaign to the sector {{sector}}',
      values: { sector: 'Vendas' },
    });
    expect(
      systemPhrase(entry('campaign-reply', { campaign_name: 'Black Friday', reply_action: 'end_with_message', executed: false })),
    ).toEqual({
      key: 'The contact answered the campaign {{campaign}}; its action "{{action}}" was not run because the conversation was already open',
      values: { campaign: 'Black Friday', action: 'end_with_message' },
      phraseValues: { action: 'End with a message' },
    });
    expect(systemPhrase(entry('campaign-reply', { campaign_name: 'Black Friday', reply_action: 'end_dnd', executed: true }))?.key).toBe(
      'The contact answered the campaign {{campaign}}',
    );
  });
});

describe('buildTimeline', () => {
  const day1 = '2026-11-20T12:00:00.000Z';
  const day2 = '2026-11-21T12:00:00.000Z';
  it('merges messages and events in time order with a separator per day and the New Messages marker', () => {
    const m1 = message({ when: day1 });
    const m2 = message({ when: day2 });
    const m3 = message({ when: '2026-11-21T12:05:00.000Z' });
    const items = buildTimeline({
      messages: [m1, m2, m3],
      history: [entry('archived', {}, '2026-11-21T12:01:00.000Z')],
      hasMore: false,
      firstUnreadUuid: m3.uuid,
      hideNotes: false,
    });
    expect(items.map((i) => i.kind)).toEqual(['day', 'message', 'day', 'message', 'system', 'new-messages', 'message']);
  });

  it('hides notes on request and leaves history older than the loaded messages for later', () => {
    const note = message({ when: day2, internal: true, author: 'USER' });
    const m = message({ when: day2 });
    const items = buildTimeline({
      messages: [m, note],
      history: [entry('archived', {}, day1)],
      hasMore: true,
      firstUnreadUuid: null,
      hideNotes: true,
    });
    expect(items.filter((i) => i.kind === 'message')).toHaveLength(1);
    expect(items.some((i) => i.kind === 'system')).toBe(false);
  });
});

describe('labels', () => {
  const now = new Date(2026, 10, 22, 15, 0);
  it('Today, Yesterday or the pt-BR date', () => {
    expect(dayLabel(new Date(2026, 10, 22, 1), now).key).toBe('Today');
    expect(dayLabel(new Date(2026, 10, 21, 23), now).key).toBe('Yesterday');
    expect(dayLabel(new Date(2026, 10, 2), now).values).toEqual({ date: '02/11/2026' });
  });
  it("'Now' under a minute", () => {
    expect(listTimestamp(new Date(now.getTime() - 30_000).toISOString(), now).key).toBe('Now');
    expect(listTimestamp(new Date(now.getTime() - 3_600_000).toISOString(), now).values?.date).toMatch(/^\d\d:\d\d$/);
  });
});

// The list showed an empty line for a voice note or a file without a caption.
describe('listPreview', () => {
  const last = (over: Partial<NonNullable<Parameters<typeof listPreview>[0]>>) => ({
    when: '2026-11-26T10:00:00.000Z',
    tags: [],
    content: '',
    author: 'CONTACT' as const,
    ...over,
  });
  it('says what a message without text carries', () => {
    expect(listPreview(last({ attachment: 'voice' }))).toEqual({ key: 'Voice message' });
    expect(listPreview(last({ attachment: 'file' }))).toEqual({ key: 'File' });
    expect(listPreview(last({ attachment: 'file', content: 'boleto.pdf' }))).toEqual({
      key: 'File: {{text}}',
      values: { text: 'boleto.pdf' },
    });
  });
  it('shows text as it is and marks internal notes', () => {
    expect(listPreview(last({ content: 'Olá' }))).toEqual({ key: '{{text}}', values: { text: 'Olá' } });
    expect(listPreview(last({ content: 'ligar amanhã', tags: ['internal-message'] }))).toEqual({
      key: 'Note: {{text}}',
      values: { text: 'ligar amanhã' },
    });
    expect(listPreview(null)).toEqual({ key: '{{text}}', values: { text: '' } });
  });
});
