import { rooms, type ServerEventName, type ServerEventPayload, type User } from '@atende/contract';
import { connectRealtime, type RealtimeSocket } from '@atende/sdk';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clearLocalSession, queryKeys } from '../session/session';

/** Spec 000 §4: connected, connecting ('Trying to reconnect'), disconnected ('Try to reconnect'). */
export type ConnectionState = 'connected' | 'connecting' | 'disconnected';

interface RealtimeValue {
  socket: RealtimeSocket | null;
  state: ConnectionState;
  reconnect(): void;
}
const RealtimeContext = createContext<RealtimeValue>({ socket: null, state: 'connecting', reconnect: () => undefined });
export const useRealtime = () => useContext(RealtimeContext);

/** One socket per signed-in tab; reloads server state after a reconnection that missed events. */
export function RealtimeProvider({ me, children }: { me: User; children: ReactNode }) {
  const [socket, setSocket] = useState<RealtimeSocket | null>(null);
  const [state, setState] = useState<ConnectionState>('connecting');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const everConnected = useRef(false);

  useEffect(() => {
    const s = connectRealtime('', { autoConnect: true });
    setSocket(s);
    s.on('connect', () => {
      setState('connected');
      if (everConnected.current && !s.recovered) void queryClient.invalidateQueries();
      everConnected.current = true;
    });
    s.on('disconnect', (reason) => setState(reason === 'io client disconnect' ? 'disconnected' : 'connecting'));
    s.on('connect_error', () => setState(s.active ? 'connecting' : 'disconnected'));
    s.io.on('reconnect_failed', () => setState('disconnected'));
    s.on('update-user', (payload) => {
      const updated = payload.user;
      if (updated.uuid === me.uuid) {
        if (!updated.is_logged) {
          // Spec 000 §4: a live event marking the user not logged in forces logout.
          clearLocalSession(queryClient);
          s.disconnect();
          notifications.show({
            id: 'forced-logout',
            color: 'red',
            autoClose: false,
            message: updated.logged_off_by === 'supervisor' ? t('You were disconnected by a supervisor') : t('You were disconnected'),
          });
          void navigate('/login', { replace: true });
          return;
        }
        queryClient.setQueryData<User>(queryKeys.me, updated);
      }
      queryClient.setQueriesData<User[]>({ queryKey: ['users'] }, (list) => list?.map((u) => (u.uuid === updated.uuid ? updated : u)));
    });
    return () => {
      s.removeAllListeners();
      s.disconnect();
    };
  }, [me.uuid, queryClient, navigate, t]);

  const reconnect = useCallback(() => {
    setState('connecting');
    socket?.connect();
  }, [socket]);

  return <RealtimeContext.Provider value={{ socket, state, reconnect }}>{children}</RealtimeContext.Provider>;
}

/** Joins a named room while mounted, and again after every reconnection. */
export function useRoom(room: string | null): void {
  const { socket } = useRealtime();
  useEffect(() => {
    if (!socket || !room) return;
    const join = () => socket.emit('join', { room });
    if (socket.connected) join();
    socket.on('connect', join);
    return () => {
      socket.off('connect', join);
      socket.emit('leave', { room });
    };
  }, [socket, room]);
}

/** Subscribes to one typed server event while mounted. */
export function useServerEvent<E extends ServerEventName>(event: E, handler: (payload: ServerEventPayload<E>) => void): void {
  const { socket } = useRealtime();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: ServerEventPayload<E>) => ref.current(payload);
    socket.on(event, listener as never);
    return () => {
      socket.off(event, listener as never);
    };
  }, [socket, event]);
}

export const metricsRoom = (tenantUuid: string) => rooms.metrics(tenantUuid);
