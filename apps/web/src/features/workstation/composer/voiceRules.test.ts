import { describe, expect, it } from 'vitest';
import { formatDuration, voiceUploadType } from './voiceRules';

describe('formatDuration', () => {
  // Recording with an mm:ss timer.
  it('shows minutes and seconds with two digits', () => {
    expect(formatDuration(0)).toBe('00:00');
    expect(formatDuration(9_999)).toBe('00:09');
    expect(formatDuration(65_000)).toBe('01:05');
    expect(formatDuration(3_600_000)).toBe('60:00');
  });
});

describe('voiceUploadType', () => {
  it('drops the codecs of the recorder type', () => {
    expect(voiceUploadType('audio/webm;codecs=opus')).toBe('audio/webm');
    expect(voiceUploadType('audio/ogg; codecs=opus')).toBe('audio/ogg');
  });
  it('is null for a type the voice upload does not take', () => {
    expect(voiceUploadType('video/webm')).toBeNull();
  });
});
