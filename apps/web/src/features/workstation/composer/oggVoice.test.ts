import { readFile } from 'node:fs/promises';
import { BufferSource, Input, OGG } from 'mediabunny';
import { describe, expect, it } from 'vitest';
import { webmVoiceToOgg } from './oggVoice';

// fixtures/chromium-voice.webm: 1.2 s recorded by Debian's Chromium MediaRecorder (audio/webm;codecs=opus)
// from its fake microphone, as the composer records a voice note.
const recorded = async () => new Blob([await readFile(new URL('./fixtures/chromium-voice.webm', import.meta.url))], { type: 'audio/webm' });

describe('voice notes as Ogg/Opus', () => {
  it("copies a Chromium recording's Opus into an Ogg file of the same length", async () => {
    const source = await recorded();
    const ogg = await webmVoiceToOgg(source);
    expect(ogg?.type).toBe('audio/ogg');
    const bytes = new Uint8Array(await ogg!.arrayBuffer());
    // An Ogg stream whose first page carries the Opus identification header.
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('OggS');
    expect(new TextDecoder().decode(bytes.slice(28, 36))).toBe('OpusHead');
    const input = new Input({ source: new BufferSource(bytes), formats: [OGG] });
    const track = await input.getPrimaryAudioTrack();
    expect(track?.codec).toBe('opus');
    const duration = await input.computeDuration();
    expect(duration).toBeGreaterThan(0.9);
    expect(duration).toBeLessThan(1.6);
    input.dispose();
  });

  it('answers null for what is no WebM voice recording', async () => {
    expect(await webmVoiceToOgg(new Blob([new Uint8Array([1, 2, 3, 4])], { type: 'audio/webm' }))).toBeNull();
  });
});
