import { serverEvents, type RealtimeEnvelope, type ServerEventName, type ServerEventPayload } from '@atende/contract';
import type { Redis } from 'ioredis';

/** Stream the api's relay reads (apps/api/src/realtime/gateway.ts); one per Redis key prefix. */
export const realtimeOutboxStream = (prefix: string) => `${prefix}realtime-outbox`;

/**
 * How the worker reaches browsers: it appends typed events to a Redis stream that the api
 * processes share through a consumer group, so each event is emitted once, through the socket.io
 * adapter, and is replayable for clients recovering a short disconnection.
 */
export class RealtimeOutbox {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** Entries kept at most; the relay acknowledges within milliseconds, this only bounds memory. */
    private readonly maxLen = 100_000,
  ) {}

  /**
   * One entry per room (the envelope names one room, which every api version reads), written in one
   * MULTI: one round trip, and a worker that dies meanwhile leaves all of the audience's entries or
   * none. The last entry's id.
   */
  async emit<E extends ServerEventName>(room: string | string[], event: E, payload: ServerEventPayload<E>): Promise<string> {
    const checked = serverEvents[event].parse(payload);
    const write = this.redis.multi();
    for (const one of typeof room === 'string' ? [room] : room) {
      const envelope: RealtimeEnvelope = { room: one, event, payload: checked };
      write.xadd(realtimeOutboxStream(this.prefix), 'MAXLEN', '~', String(this.maxLen), '*', 'envelope', JSON.stringify(envelope));
    }
    const results = (await write.exec()) ?? [];
    const failed = results.find(([error]) => error);
    if (failed) throw failed[0];
    return String(results.at(-1)?.[1] ?? '');
  }
}
