/** Connected, connecting ('Trying to reconnect'), disconnected ('Try to reconnect'). */
export type ConnectionState = 'connected' | 'connecting' | 'disconnected';

/**
 * After a disconnect socket.io reconnects by itself unless the server or this client ended the
 * connection on purpose; then only the user's 'Try to reconnect' brings it back.
 */
export function connectionStateAfterDisconnect(reason: string): ConnectionState {
  return reason === 'io server disconnect' || reason === 'io client disconnect' ? 'disconnected' : 'connecting';
}

/** The realtime connection's 4000 ms time-out. */
export const CONNECTING_TIME_OUT_MS = 4000;

/** The handshake error the api answers when the session behind the socket has ended (revoked, expired). */
export const isSessionRefused = (error: Error): boolean => error.message === 'unauthorized';

/**
 * The state shown for a socket.io connection. While socket.io retries by itself the
 * state is 'connecting', for the time-out at most: then 'disconnected' (with 'Try to reconnect'),
 * though the retries go on and a success still shows 'connected'. A connection ended on purpose is
 * 'disconnected' at once.
 */
export class ConnectionTracker {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timedOut = false;

  constructor(
    private readonly show: (state: ConnectionState) => void,
    private readonly timeoutMs = CONNECTING_TIME_OUT_MS,
  ) {}

  connected(): void {
    this.reset();
    this.show('connected');
  }

  /** socket.io lost the connection or is trying again by itself. */
  connecting(): void {
    if (this.timedOut) return;
    this.show('connecting');
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.timedOut = true;
      this.show('disconnected');
    }, this.timeoutMs);
  }

  /** Nothing retries any more: only the user brings the connection back. */
  stopped(): void {
    this.reset();
    this.show('disconnected');
  }

  /** The user asked to try again: 'connecting' with a fresh time-out. */
  retry(): void {
    this.reset();
    this.connecting();
  }

  dispose(): void {
    this.reset();
  }

  private reset(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timedOut = false;
  }
}
