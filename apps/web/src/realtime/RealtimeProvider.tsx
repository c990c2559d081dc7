import { type ServerEventName, type ServerEventPayload, type User } from '@atende/contract';
import { connectRealtime, type RealtimeSocket } from '@atende/sdk';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useEffectEvent, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clearLocalSession, queryKeys, saveLocalUser } from '../session/session';
import { toastError } from '../ui/toasts';
import { ConnectionTracker, connectionStateAfterDisconnect, isSessionRefused, type ConnectionState } from './connectionState';
import { reloadLiveQueries } from './liveQueries';

interface RealtimeValue {
  socket: RealtimeSocket | null;
  state: ConnectionState;
  reconnect(): void;
}
const RealtimeContext = createContext<RealtimeValue>({ socket: null, state: 'connecting', reconnect: () => undefined });
export const useRealtime = () => useContext(RealtimeContext);

/**
 * One socket per signed-in tab: tracks the connection state, reloads the live
 * server state after a connection that may have missed events, patches the cached users with `update-user`
 * and ends this tab's session when the signed-in user is marked not logged in.
 */
export function RealtimeProvider({ me, children }: { me: User; children: ReactNode }) {
  const [socket, setSocket] = useState<RealtimeSocket | null>(null);
  const [state, setState] = useState<ConnectionState>('connecting');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const tracker = useRef<ConnectionTracker | null>(null);

  // Shown and done with the latest navigate/t, however long the socket has lived.
  const leave = useEffectEvent((bySupervisor: boolean) => {
    toastError(t(bySupervisor ? 'You were disconnected by a supervisor' : 'You were disconnected'), { persistent: true });
    void Promise.resolve(navigate('/login', { replace: true })).then(() => clearLocalSession(queryClient));
  });

  useEffect(() => {
    const s = connectRealtime('');
    const connection = new ConnectionTracker(setState);
    tracker.current = connection;
    // The socket is the outside resource this effect creates; the tree below needs it as state.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- set once per socket, not derived from render values
    setSocket(s);
    // The session is over for this tab: logout, with a persistent toast.
    const signedOut = (bySupervisor: boolean) => {
      s.disconnect();
      connection.dispose();
      leave(bySupervisor);
    };
    s.on('connect', () => {
      connection.connected();
      // A recovered socket was handed the events it missed. Any other connection may have missed
      // some: a reconnection those sent while it was away, the first one those sent between the
      // start-up calls and itself.
      if (!s.recovered) void reloadLiveQueries(queryClient);
    });
    s.on('disconnect', (reason) =>
      connectionStateAfterDisconnect(reason) === 'connecting' ? connection.connecting() : connection.stopped(),
    );
    s.on('connect_error', (error) => {
      // The session ended (revoked elsewhere, expired) while the socket was away: retrying is pointless.
      if (isSessionRefused(error)) return signedOut(false);
      return s.active ? connection.connecting() : connection.stopped();
    });
    s.io.on('reconnect_attempt', () => connection.connecting());
    s.io.on('reconnect_failed', () => connection.stopped());
    s.on('update-user', ({ user }) => {
      if (user.uuid === me.uuid && !user.is_logged) {
        // A live event marking the user not logged in forces logout.
        signedOut(user.logged_off_by === 'supervisor');
        return;
      }
      if (user.uuid === me.uuid) {
        // The event carries the stored roles; this session keeps the roles it signed in with (/users/me).
        const mine = { ...user, roles: queryClient.getQueryData<User>(queryKeys.me)?.roles ?? user.roles };
        queryClient.setQueryData<User>(queryKeys.me, mine);
        saveLocalUser(mine);
      }
      queryClient.setQueriesData<User[]>({ queryKey: ['users'] }, (list) => list?.map((u) => (u.uuid === user.uuid ? user : u)));
    });
    return () => {
      connection.dispose();
      s.removeAllListeners();
      s.io.removeAllListeners();
      s.disconnect();
    };
  }, [me.uuid, queryClient]);

  const reconnect = useCallback(() => {
    if (!socket) return;
    // socket.io may still be retrying in the background (after the time-out): start over now.
    if (socket.active) socket.disconnect();
    tracker.current?.retry();
    socket.connect();
  }, [socket]);

  const value = useMemo(() => ({ socket, state, reconnect }), [socket, state, reconnect]);
  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
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
      if (socket.connected) socket.emit('leave', { room });
    };
  }, [socket, room]);
}

/** Subscribes to one typed server event while mounted. */
export function useServerEvent<E extends ServerEventName>(event: E, handler: (payload: ServerEventPayload<E>) => void): void {
  const { socket } = useRealtime();
  // The handler of the latest render, without subscribing again each time it changes.
  const onEvent = useEffectEvent(handler);
  useEffect(() => {
    if (!socket) return;
    const listener = (payload: ServerEventPayload<E>) => onEvent(payload);
    // socket.io's typed `on` cannot relate a generic event name to its listener type.
    const untyped = socket as unknown as {
      on(e: string, l: (p: ServerEventPayload<E>) => void): void;
      off(e: string, l: (p: ServerEventPayload<E>) => void): void;
    };
    untyped.on(event, listener);
    return () => untyped.off(event, listener);
  }, [socket, event]);
}
