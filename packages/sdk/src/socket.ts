import type { ClientToServerEvents, ServerToClientEvents } from '@atende/contract';
import { io, type Socket } from 'socket.io-client';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The realtime connection: path /socket, 4000 ms time-out. */
export function connectRealtime(baseUrl: string, options: { token?: string; autoConnect?: boolean } = {}): RealtimeSocket {
  return io(baseUrl || undefined, {
    path: '/socket',
    timeout: 4000,
    withCredentials: true,
    transports: ['websocket', 'polling'],
    auth: options.token ? { token: options.token } : undefined,
    autoConnect: options.autoConnect ?? true,
  });
}
