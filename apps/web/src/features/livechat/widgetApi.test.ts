import type { LivechatMessage } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { mergeMessages } from './widgetApi';

const m = (uuid: string, created_at: string, content = uuid): LivechatMessage => ({
  uuid,
  from: 'visitor',
  content,
  annex: null,
  agent_name: null,
  created_at,
});

describe('the widget message list', () => {
  it('keeps each message once, oldest first, when a poll answers messages already shown', () => {
    const shown = [m('b', '2026-01-01T10:00:01.000Z'), m('a', '2026-01-01T10:00:00.000Z')];
    const polled = [m('b', '2026-01-01T10:00:01.000Z', 'b (server)'), m('c', '2026-01-01T10:00:01.000Z')];
    expect(mergeMessages(shown, polled).map((x) => [x.uuid, x.content])).toEqual([
      ['a', 'a'],
      ['b', 'b (server)'],
      ['c', 'c'],
    ]);
  });
});
