import { describe, expect, it } from 'vitest';
import { announcesWaiting, expectOwnQueueEntry } from './waitingNotice';

// "There's a costumer waiting!" only for a customer who is really waiting for this agent.
describe('the waiting-customer notice', () => {
  const manual = { manual: true, paused: false };
  it('announces a rise of the waiting count under manual distribution', () => {
    expect(announcesWaiting(1, 2, manual)).toBe(true);
    expect(announcesWaiting(2, 2, manual)).toBe(false);
    expect(announcesWaiting(2, 1, manual)).toBe(false);
    expect(announcesWaiting(1, 2, { ...manual, manual: false })).toBe(false);
  });

  it('stays silent while the agent is paused', () => {
    expect(announcesWaiting(1, 2, { manual: true, paused: true })).toBe(false);
  });

  it("stays silent once for the agent's own return or transfer, then announces again", () => {
    expectOwnQueueEntry(1_000);
    expect(announcesWaiting(1, 2, { ...manual, now: 2_000 })).toBe(false);
    expect(announcesWaiting(2, 3, { ...manual, now: 2_100 })).toBe(true);
    expectOwnQueueEntry(10_000);
    // Too long after the action: a customer's own arrival.
    expect(announcesWaiting(3, 4, { ...manual, now: 16_000 })).toBe(true);
  });
});
