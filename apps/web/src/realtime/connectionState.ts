/** Spec 000 §4: connected, connecting ('Trying to reconnect'), disconnected ('Try to reconnect'). */
export type ConnectionState = 'connected' | 'connecting' | 'disconnected';

/**
 * After a disconnect socket.io reconnects by itself unless the server or this client ended the
 * connection on purpose; then only the user's 'Try to reconnect' brings it back.
 */
export function connectionStateAfterDisconnect(reason: string): ConnectionState {
  return reason === 'io server disconnect' || reason === 'io client disconnect' ? 'disconnected' : 'connecting';
}
