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
import { allows, roleCovers } from '@atende/core';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Env } from '../env';
import { isSessionLive, type Db } from '@atende/db';
import { resolveSession, type Session } from '../modules/session/session';
import { SESSION_COOKIE } from '../modules/session/tokens';
import { sessionRoom, type Realtime } from './emit';
import { allowedOrigins, originAllowed } from '../plugins/security-headers';
import { requestRedis, within } from '../redis-requests';
import { PresenceTracker } from './presence';

/**
 * What a socket keeps of its session: the fields the gateway reads, not the whole Session (the
 * tenant's parsed config alone is a few hundred bytes per socket, over 10,000 sockets).
 */
type SocketSession = Pick<Session, 'sessionId' | 'userId' | 'userUuid' | 'tenantId' | 'roles' | 'expiresAt' | 'apiToken'>;
type SocketData = { session: SocketSession };
export type Io = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/** Which named rooms a session may join. */
export function mayJoin(session: Pick<Session, 'userUuid' | 'tenantId' | 'roles'>, room: string): boolean {
  if (room === rooms.user(session.userUuid)) return true;
  if (room === rooms.metrics(session.tenantId)) return allows(session.roles, 'dashboard');
  // The role matrix's campaigns row (stricter reading: not manager).
  if (room === rooms.campaigns(session.tenantId)) return allows(session.roles, 'campaigns');
  const conversationPrefix = rooms.conversation(session.tenantId, '');
  if (room.startsWith(conversationPrefix) && /^[0-9a-f-]{36}$/.test(room.slice(conversationPrefix.length))) {
    return roleCovers(session.roles, 'supervisor');
  }
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
export async function createGateway(
  app: FastifyInstance,
  deps: GatewayDeps,
): Promise<{ io: Io; realtime: Realtime; close(): Promise<void> }> {
  const { env, db, redis, log } = deps;
  const allowed = allowedOrigins(env.ALLOWED_ORIGINS);
  const io: Io = new Server(app.server, {
    path: '/socket',
    serveClient: false,
    cors: { origin: [...allowed], credentials: true },
    allowRequest: (req, callback) => callback(null, originAllowed(req.headers.origin, req.headers.host, allowed)),
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: false },
    adapter: createAdapter(redis, {
      streamName: `${env.REDIS_PREFIX}socket.io`,
      channelPrefix: `${env.REDIS_PREFIX}socket.io`,
      sessionKeyPrefix: `${env.REDIS_PREFIX}sio:session:`,
      onlyPlaintext: true,
    }),
  });

  guardRecovery(io, db);
  const realtime: Realtime = {
    emit(room, event, payload) {
      io.to(room).emit(event, ...([payload] as Parameters<ServerToClientEvents[typeof event]>));
    },
    async disconnectSessions(sessionIds) {
      if (sessionIds.length === 0) return;
      // The adapter publishes a broadcast on `redis` and hands it to local sockets once Redis has
      // answered, while disconnectSockets acts locally at once. A round trip on the same connection
      // plus one macrotask lets every earlier emit reach local sockets first; other processes get
      // both in stream order.
      // At most a second: while Redis is down, signing out must not hang.
      await within(redis.ping(), 1000, 'PONG');
      await new Promise((resolve) => setImmediate(resolve));
      io.in(sessionIds.map(sessionRoom)).disconnectSockets(true);
    },
    async connectedElsewhere(userUuid, exceptSessionId) {
      // Every api process answers through the adapter; no answer in time counts as nobody.
      const sockets = await within(io.in(rooms.user(userUuid)).fetchSockets(), 2000, []);
      return sockets.some((s) => s.data.session && s.data.session.sessionId !== exceptSessionId);
    },
  };
  // A fail-fast connection: while Redis is down presence updates fail at once instead of queueing.
  const presenceRedis = await requestRedis(redis);
  const presence = new PresenceTracker({
    db,
    realtime,
    log,
    redis: presenceRedis,
    prefix: env.REDIS_PREFIX,
    graceMs: env.PRESENCE_GRACE_MS,
  });
  presence.start();

  io.use(async (socket, next) => {
    const token =
      (typeof socket.handshake.auth?.token === 'string' ? socket.handshake.auth.token : undefined) ??
      cookieValue(socket.handshake.headers.cookie, SESSION_COOKIE);
    if (!token) return next(new Error('unauthorized'));
    try {
      const { sessionId, userId, userUuid, tenantId, roles, expiresAt, apiToken } = await resolveSession(db, token, env.JWT_SECRET);
      socket.data.session = { sessionId, userId, userUuid, tenantId, roles, expiresAt, ...(apiToken ? { apiToken } : {}) };
      next();
    } catch {
      next(new Error('unauthorized'));
    }
  });

  io.on('connection', (socket: Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>) => {
    const { session } = socket.data;
    // The handshake (headers, auth) is built and the session resolved: the first HTTP request, which
    // engine.io keeps for the connection's whole life, is not needed again. Dropping it saves a few KB
    // per connected socket (socket.io's "Memory usage" guide).
    socket.conn.request = null as unknown as typeof socket.conn.request;
    // Rooms every socket is in: its user (spec), its tenant (queue counts) and its session (so a revoked session can be dropped).
    const own = [rooms.user(session.userUuid), rooms.tenant(session.tenantId), sessionRoom(session.sessionId)];
    // A recovered socket comes back with its old rooms: keep only those this session may be in.
    if (socket.recovered) {
      for (const room of socket.rooms) if (room !== socket.id && !own.includes(room) && !mayJoin(session, room)) void socket.leave(room);
    }
    void socket.join(own);
    // A socket lives no longer than its session.
    const untilExpiry = Math.min(session.expiresAt.getTime() - Date.now(), 2 ** 31 - 1);
    const expiry = setTimeout(() => socket.disconnect(true), Math.max(untilExpiry, 0));
    socket.on('disconnect', () => clearTimeout(expiry));
    // An integration's token is not an agent at a browser: it has no presence.
    if (!session.apiToken) {
      const failed = (error: unknown) => log.warn({ err: error, userId: session.userId }, 'presence update failed');
      presence.connected(session.tenantId, session.userId).catch(failed);
      socket.on('disconnect', () => void presence.disconnected(session.userId).catch(failed));
    }
    const handle = (action: 'join' | 'leave') => (payload: unknown, ack?: (r: JoinAck) => void) => {
      const parsed = RoomRequestSchema.safeParse(payload);
      const reply = typeof ack === 'function' ? ack : () => undefined;
      if (!parsed.success) return reply({ ok: false, error_message: 'Invalid room' });
      if (action === 'leave') {
        if (own.includes(parsed.data.room)) return reply({ ok: false, error_message: 'You may not leave this room' });
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

  const relay = await startOutboxRelay(io, redis, env.REDIS_PREFIX, log);
  return {
    io,
    realtime,
    async close() {
      await relay.stop();
      await presence.stop();
      presenceRedis.disconnect();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}

/**
 * socket.io replays a recovered socket's missed events while it rebuilds the socket, before any
 * middleware checks the handshake. Recovery is therefore only granted while the session the
 * socket had is still live: a session revoked (logout, password change, removal) while its socket
 * was away gets a fresh, empty connection, or none, instead of the events it missed.
 */
function guardRecovery(io: Io, db: Db): void {
  type Persisted = { data?: Partial<SocketData> } | null | undefined;
  const adapter = io.of('/').adapter as unknown as { restoreSession(pid: string, offset: string): Promise<Persisted> };
  const restore = adapter.restoreSession.bind(adapter);
  adapter.restoreSession = async (pid, offset) => {
    const previous = await restore(pid, offset);
    const sessionId = previous?.data?.session?.sessionId;
    if (!previous || !sessionId) throw new Error('nothing to recover');
    if (!(await isSessionLive(db, sessionId))) throw new Error('the session ended');
    return previous;
  };
}

/**
 * Delivers what the worker put on the realtime outbox stream. A consumer group hands each entry
 * to exactly one api process, which emits it through the adapter to every process; entries left
 * pending by a process that died are claimed by another after 30 s. The group starts at the
 * stream's end ('$'): replaying old entries (an old update-user with is_logged false) would log
 * people out. It is created before the api listens, so nothing written after start-up is missed.
 */
export async function startOutboxRelay(io: Io, redis: Redis, prefix: string, log: Logger) {
  const stream = `${prefix}realtime-outbox`;
  const group = 'api';
  const consumer = `${hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const reader = redis.duplicate();
  reader.on('error', (error: Error) => log.warn({ err: error }, 'realtime relay: redis connection error'));
  let running = true;

  try {
    await reader.xgroup('CREATE', stream, group, '$', 'MKSTREAM');
  } catch (error) {
    if (!String(error).includes('BUSYGROUP')) throw error;
  }

  const envelopeOf = (fields: unknown): unknown => {
    if (!Array.isArray(fields)) return undefined;
    for (let i = 0; i + 1 < fields.length; i += 2) {
      if (fields[i] === 'envelope') return JSON.parse(String(fields[i + 1]));
    }
    return undefined;
  };

  const deliver = async (entries: [string, unknown][]) => {
    for (const [id, fields] of entries) {
      try {
        const envelope = RealtimeEnvelopeSchema.parse(envelopeOf(fields));
        const payload = serverEvents[envelope.event].parse(envelope.payload);
        io.to(envelope.room).emit(envelope.event, ...([payload] as [never]));
      } catch (error) {
        log.warn({ err: error, id }, 'dropped an invalid realtime outbox entry');
      }
      await reader.xack(stream, group, id);
    }
  };

  const loop = (async () => {
    while (running) {
      try {
        const claimed = (await reader.xautoclaim(stream, group, consumer, 30_000, '0-0', 'COUNT', 100)) as [string, [string, unknown][]];
        if (claimed[1]?.length) await deliver(claimed[1]);
        const res = (await reader.xreadgroup('GROUP', group, consumer, 'COUNT', 100, 'BLOCK', 1000, 'STREAMS', stream, '>')) as
          [string, [string, unknown][]][] | null;
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
      // Forget this consumer unless it still holds entries another process must claim.
      const pending = (await redis.xpending(stream, group, '-', '+', 1, consumer).catch(() => [1])) as unknown[];
      if (pending.length === 0) await redis.xgroup('DELCONSUMER', stream, group, consumer).catch(() => undefined);
    },
  };
}
