// The agent's own return to the queue or transfer to a sector raises the waiting count too: the
// action marks itself first, and that rise is not announced as a customer waiting.
let ownQueueEntryUntil = 0;
const OWN_QUEUE_ENTRY_MS = 5_000;
export function expectOwnQueueEntry(now = Date.now()): void {
  ownQueueEntryUntil = now + OWN_QUEUE_ENTRY_MS;
}

/**
 * Whether a waiting-queue count announces "There's a costumer waiting!": only when it
 * rose, distribution is manual, the agent is not paused and the rise is not the agent's own doing.
 */
export function announcesWaiting(before: number, after: number, opts: { manual: boolean; paused: boolean; now?: number }): boolean {
  if (after <= before || !opts.manual || opts.paused) return false;
  if ((opts.now ?? Date.now()) < ownQueueEntryUntil) {
    ownQueueEntryUntil = 0;
    return false;
  }
  return true;
}
