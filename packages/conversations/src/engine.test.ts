import { rooms } from '@atende/contract';
import { describe, expect, it } from 'vitest';
import { announce, conversationAudience, Effects } from './engine';

// One broadcast per audience: the api's socket.io adapter writes one Redis stream entry per emit and
// awaits it before delivering, so a message for a conversation's live view and its agent is one emit
// to both rooms, not one per room (issue 13 item 3).
describe('announce', () => {
  it("emits a new message once, to the conversation's live view and its agent together", async () => {
    const calls: { room: string | string[]; event: string }[] = [];
    const effects = new Effects();
    const tenant = '6f0b7c1e-6a55-4b0e-9a59-2b1c6f4f2a11';
    const conversation = '0b7c1e6a-554b-4e9a-992b-1c6f4f2a11ff';
    const agent = '1c6f4f2a-11ff-4e9a-992b-0b7c1e6a554b';
    effects.messages.push({ tenantId: tenant, conversationId: conversation, holderUuid: agent, message: { uuid: 'm' } as never });
    effects.messages.push({ tenantId: tenant, conversationId: conversation, holderUuid: null, message: { uuid: 'n' } as never });
    // Message effects alone read nothing from the database.
    await announce({ db: undefined as never, realtime: { emit: (room, event) => void calls.push({ room, event }) }, log: { error: () => undefined } }, effects);
    expect(calls).toEqual([
      { room: [rooms.conversation(tenant, conversation), rooms.user(agent)], event: 'new-message' },
      { room: [rooms.conversation(tenant, conversation)], event: 'new-message' },
    ]);
    expect(conversationAudience(tenant, conversation, agent)).toEqual([rooms.conversation(tenant, conversation), rooms.user(agent), rooms.metrics(tenant)]);
  });
});
