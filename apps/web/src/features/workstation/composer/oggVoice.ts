import { BufferSource, BufferTarget, Conversion, Input, OggOutputFormat, Output, WEBM } from 'mediabunny';

/**
 * A voice note as the providers play it: Chromium records Opus in a WebM file, while WhatsApp and
 * Telegram take a voice note only as Opus in an Ogg file. The Opus packets are copied into an Ogg
 * file as they are (no re-encoding, so no quality is lost and no codec is needed). Loaded only when a
 * recording is sent. Null when the recording is not WebM with one Opus track.
 */
export async function webmVoiceToOgg(recording: Blob): Promise<Blob | null> {
  const input = new Input({ source: new BufferSource(await recording.arrayBuffer()), formats: [WEBM] });
  try {
    const track = await input.getPrimaryAudioTrack();
    if (!track || track.codec !== 'opus') return null;
    const target = new BufferTarget();
    const output = new Output({ format: new OggOutputFormat(), target });
    const conversion = await Conversion.init({ input, output, video: { discard: true }, audio: { codec: 'opus', forceTranscode: false } });
    if (!conversion.isValid) return null;
    await conversion.execute();
    return target.buffer ? new Blob([target.buffer], { type: 'audio/ogg' }) : null;
  } catch {
    return null;
  } finally {
    input.dispose();
  }
}
