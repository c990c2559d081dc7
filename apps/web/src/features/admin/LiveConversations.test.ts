import type { DashboardConversation } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { sortConversations } from './LiveConversations';

const row = (uuid: string, timeJoin: string, contact: string | null, agent: string | null): DashboardConversation => ({
  uuid,
  state: 'waiting',
  type: 'inbound',
  priority: 0,
  ticket_number: 1,
  contact: { uuid, name: contact, phone: null },
  user: agent ? { id: 1, username: agent } : null,
  sector: null,
  channel: { uuid, name: 'API', type: 'custom' },
  time_join: timeJoin,
  time_answer: null,
  last_message: null,
});

describe('sortConversations (start descending by default)', () => {
  const rows = [
    row('a', '2026-11-20T10:00:00.000Z', 'bruna', null),
    row('b', '2026-11-20T12:00:00.000Z', 'Ana', 'zeca'),
    row('c', '2026-11-20T11:00:00.000Z', 'carla', 'Ana'),
  ];
  it('orders by start, newest first', () => {
    expect(sortConversations(rows, { key: 'time_join', desc: true }).map((r) => r.uuid)).toEqual(['b', 'c', 'a']);
  });
  it('orders text columns without regard to case, empty first when ascending', () => {
    expect(sortConversations(rows, { key: 'contact', desc: false }).map((r) => r.uuid)).toEqual(['b', 'a', 'c']);
    expect(sortConversations(rows, { key: 'agent', desc: false }).map((r) => r.uuid)).toEqual(['a', 'c', 'b']);
  });
  it('keeps the given order on ties and does not change its input', () => {
    const copy = [...rows];
    expect(sortConversations(rows, { key: 'state', desc: true }).map((r) => r.uuid)).toEqual(['a', 'b', 'c']);
    expect(rows).toEqual(copy);
  });
});
