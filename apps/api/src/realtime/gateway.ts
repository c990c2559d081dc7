import { hostname } from 'node:os';
import {
  RealtimeEnvelopeSchema,
  RoomRequestSchema,
  rooms,
  serverEvents,
  type ClientToServerEvents,
  type JoinAck,
  type ServerToClientEvents,
} from '@atende/contract';
import { roleCovers } from '@atende/core';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Env } from '../env';
import type { Db } from '@atende/db';
import { resolveSession, type Session } from '../modules/session/session';
import { SESSION_COOKIE } from '../modules/session/tokens';
import type { Realtime } from './emit';

type SocketData = { session: Session };
export type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** Which named rooms a session may join (spec 000 §7). */
export function mayJoin(session: Session, room: string): boolean {
  if (room === rooms.user(session.userUuid)) return true;
  if (room === rooms.metrics(session.tenantId)) return roleCovers(session.roles, 'supervisor');
  if (room === rooms.campaigns(session.tenantId)) return roleCovers(session.roles, 'campaign_manager');
  return false;
}

export interface GatewayDeps {
  env: Env;
  db: Db;
  redis: Redis;
  log: Logger;
}

/**
 * socket.io on the api's own server at /socket: authenticated by the session, Origin checked,
 * rooms shared between api processes by the Redis streams adapter, which also lets a client that
 * was briefly disconnected recover the packets it missed.
 */
export function createGateway(app: FastifyInstance, deps: GatewayDeps): { io: Io; realtime: Realtime; close(): Promise<void> } {
  const { env, db, redis, log } = deps;
  const allowed = new Set(env.ALLOWED_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean));
  const io: Io = new Server(app.server, {
    path: '/socket',
    serveClient: false,
    cors: { origin: [...allowed], credentials: true },
    allowRequest: (req, callback) => {
      const origin = req.headers.origin;
      // Browsers always send Origin; a missing one is a non-browser client (sdk), authenticated by token.
      const sameHost = origin && req.headers.host && new URL(origin).host === req.headers.host;
      callback(null, !origin || allowed.has(origin) || Boolean(sameHost));
    },
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: false },
    adapter: createAdapter(redis, {
      streamName: `${env.REDIS_PREFIX}socket.io`,
      channelPrefix: `${env.REDIS_PREFIX}socket.io`,
      sessionKeyPrefix: `${env.REDIS_PREFIX}sio:session:`,
      onlyPlaintext: true,
    }),
  });

  io.use(async (socket, next) => {
    const token =
      (typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : undefined) ??
      cookieValue(socket.handshake.headers.cookie, SESSION_COOKIE);
    if (!token) return next(new Error('unauthorized'));
    try {
      socket.data.session = await resolveSession(db, token, env.JWT_SECRET);
      next();
    } catch {
      next(new Error('unauthorized'));
    }
  });

  io.on('connection', (socket: Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>) => {
    const { session } = socket.data;
    // Rooms every socket is in: its user (spec) and its session (so a revoked session can be dropped).
    void socket.join([rooms.user(session.userUuid), `session:${session.sessionId}`]);
    const handle = (action: 'join' | 'leave') => (payload: unknown, ack?: (r: JoinAck) => void) => {
      const parsed = RoomRequestSchema.safeParse(payload);
      const reply = typeof ack === 'function' ? ack : () => undefined;
      if (!parsed.success) return reply({ ok: false, error_message: 'Invalid room' });
      if (action === 'leave') {
        void socket.leave(parsed.data.room);
        return reply({ ok: true });
      }
      if (!mayJoin(session, parsed.data.room)) return reply({ ok: false, error_message: 'You may not join this room' });
      void socket.join(parsed.data.room);
      return reply({ ok: true });
    };
    socket.on('join', handle('join'));
    socket.on('leave', handle('leave'));
  });

  const realtime: Realtime = {
    emit(room, event, payload) {
      io.to(room).emit(event, ...([payload] as Parameters<ServerToClientEvents[typeof event]>));
    },
    disconnectRoom(room, delayMs = 0) {
      const run = () => io.in(room).disconnectSockets(true);
      if (delayMs > 0) setTimeout(run, delayMs).unref();
      else run();
    },
  };

  const relay = startOutboxRelay(io, redis, env.REDIS_PREFIX, log);
  return {
    io,
    realtime,
    async close() {
      await relay.stop();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}

/**
 * Delivers what the worker put on the realtime outbox stream. A consumer group hands each entry
 * to exactly one api process, which emits it through the adapter to every process; entries left
 * pending by a process that died are claimed by another after 30 s.
 */
function startOutboxRelay(io: Io, redis: Redis, prefix: string, log: Logger) {
  const stream = `${prefix}realtime-outbox`;
  const group = 'api';
  const consumer = `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const reader = redis.duplicate();
  let running = true;

  const deliver = async (entries: [string, string[]][]) => {
    for (const [id, fields] of entries) {
      const raw = fields[fields.indexOf('envelope') + 1];
      try {
        const envelope = RealtimeEnvelopeSchema.parse(JSON.parse(raw ?? ''));
        const payload = serverEvents[envelope.event].parse(envelope.payload);
        io.to(envelope.room).emit(envelope.event, ...([payload] as [never]));
      } catch (error) {
        log.warn({ err: error, id }, 'dropped an invalid realtime outbox entry');
      }
      await reader.xack(stream, group, id);
    }
  };

  const loop = (async () => {
    try {
      await reader.xgroup('CREATE', stream, group, '$', 'MKSTREAM');
    } catch (error) {
      if (!String(error).includes('BUSYGROUP')) log.error({ err: error }, 'realtime outbox group');
    }
    while (running) {
      try {
        const claimed = (await reader.xautoclaim(stream, group, consumer, 30_000, '0-0', 'COUNT', 100)) as [string, [string, string[]][]];
        if (claimed[1]?.length) await deliver(claimed[1]);
        const res = (await reader.xreadgroup('GROUP', group, consumer, 'COUNT', 100, 'BLOCK', 1000, 'STREAMS', stream, '>')) as
          | [string, [string, string[]][]][]
          | null;
        for (const [, entries] of res ?? []) await deliver(entries);
      } catch (error) {
        if (!running) break;
        log.error({ err: error }, 'realtime outbox relay');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();

  return {
    async stop() {
      running = false;
      reader.disconnect();
      await loop.catch(() => undefined);
    },
  };
}
