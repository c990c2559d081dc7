import type { ServerEventName, ServerEventPayload } from '@atende/contract';

/** How services reach browsers: one typed emit, recipients chosen by room on the server. */
export interface Realtime {
  /**
   * To every socket in any of the rooms, once each. An audience of several rooms is one broadcast:
   * one entry on the adapter's Redis stream, which the adapter awaits before local delivery.
   */
  emit<E extends ServerEventName>(room: string | string[], event: E, payload: ServerEventPayload<E>): void;
  /**
   * Disconnects every socket of these sessions, on every api process, after the events emitted so
   * far have gone out (a forced-offline browser must still get its update-user first).
   */
  disconnectSessions(sessionIds: readonly string[]): Promise<void>;
  /** Whether the user has a connected socket, on any api process, of a session other than this one. */
  connectedElsewhere(userUuid: string, exceptSessionId: string): Promise<boolean>;
}

/** The room every socket of a session is in, so a revoked session can be dropped wherever it is. */
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
