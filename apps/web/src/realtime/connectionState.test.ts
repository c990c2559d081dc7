import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONNECTING_TIME_OUT_MS, ConnectionTracker, connectionStateAfterDisconnect, isSessionRefused } from './connectionState';

// Connecting while socket.io retries by itself; disconnected when only the user's
// 'Try to reconnect' brings the connection back.
describe('connectionStateAfterDisconnect', () => {
  it('is connecting after a dropped transport or a ping time-out', () => {
    expect(connectionStateAfterDisconnect('transport close')).toBe('connecting');
    expect(connectionStateAfterDisconnect('ping timeout')).toBe('connecting');
  });
  it('is disconnected when the server or this tab ended the connection', () => {
    expect(connectionStateAfterDisconnect('io server disconnect')).toBe('disconnected');
    expect(connectionStateAfterDisconnect('io client disconnect')).toBe('disconnected');
  });
});

describe('ConnectionTracker (4000 ms time-out)', () => {
  const track = () => {
    const shown: string[] = [];
    return { shown, tracker: new ConnectionTracker((s) => shown.push(s)) };
  };
  afterEach(() => vi.useRealTimers());

  it('shows connecting while socket.io retries, then disconnected after the time-out, and connected when a retry succeeds', () => {
    vi.useFakeTimers();
    const { shown, tracker } = track();
    tracker.connecting();
    vi.advanceTimersByTime(CONNECTING_TIME_OUT_MS - 1);
    tracker.connecting();
    expect(shown.at(-1)).toBe('connecting');
    vi.advanceTimersByTime(1);
    expect(shown.at(-1)).toBe('disconnected');
    // Later attempts of the background retry do not flip it back to connecting.
    tracker.connecting();
    expect(shown.at(-1)).toBe('disconnected');
    tracker.connected();
    expect(shown.at(-1)).toBe('connected');
  });

  it("is disconnected at once when nothing retries; the user's retry gets a fresh time-out", () => {
    vi.useFakeTimers();
    const { shown, tracker } = track();
    tracker.stopped();
    expect(shown).toEqual(['disconnected']);
    tracker.retry();
    expect(shown.at(-1)).toBe('connecting');
    vi.advanceTimersByTime(CONNECTING_TIME_OUT_MS);
    expect(shown.at(-1)).toBe('disconnected');
  });

  it('recognises the refusal of an ended session', () => {
    expect(isSessionRefused(new Error('unauthorized'))).toBe(true);
    expect(isSessionRefused(new Error('websocket error'))).toBe(false);
  });
});
