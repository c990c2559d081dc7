import { describe, expect, it } from 'vitest';
import { connectionStateAfterDisconnect } from './connectionState';

// spec 000 §4: connecting while socket.io retries by itself; disconnected when only the user's
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
