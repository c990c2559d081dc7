import type { ServerEventName, ServerEventPayload } from '@atende/contract';
import type { Db } from '@atende/db';

/**
 * Where conversation events go: the api emits through its socket.io gateway, the worker appends
 * to the realtime outbox stream the api relays (@atende/queue RealtimeOutbox). Either may be async.
 */
export interface RealtimeSink {
  /** To every socket in any of the rooms, once each (one broadcast for an audience of several rooms). */
  emit<E extends ServerEventName>(room: string | string[], event: E, payload: ServerEventPayload<E>): void | Promise<unknown>;
}

/** Enough of pino (or Fastify's logger) for failures that must not undo a committed change. */
export interface ErrorLog {
  error(obj: object, msg: string): void;
}

/** What the conversation rules need, whether they run in an api request or a worker job. */
export interface ConversationDeps {
  db: Db;
  realtime: RealtimeSink;
  log: ErrorLog;
}
