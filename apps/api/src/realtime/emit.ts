import type { ServerEventName, ServerEventPayload } from '@atende/contract';

/** How services reach browsers: one typed emit, recipients chosen by room on the server. */
export interface Realtime {
  emit<E extends ServerEventName>(room: string, event: E, payload: ServerEventPayload<E>): void;
  /** Disconnects every socket in a room after `delayMs`, so a last event can still reach them. */
  disconnectRoom(room: string, delayMs?: number): void;
}
