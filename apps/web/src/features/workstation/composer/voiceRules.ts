import { baseType } from './attachmentRules';

/** The recording timer: mm:ss, minutes not capped at 59. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** Types the voice upload accepts (contract VoiceUploadSchema), in the order a recorder is asked for them. */
export const VOICE_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4'] as const;
export type VoiceType = (typeof VOICE_TYPES)[number];

/** The type a recording is uploaded as: the recorder's type without codecs, if the upload accepts it. */
export function voiceUploadType(recorderType: string): VoiceType | null {
  const type = baseType(recorderType);
  return (VOICE_TYPES as readonly string[]).includes(type) ? (type as VoiceType) : null;
}

/**
 * The recording as it is sent: a browser's WebM recording becomes Ogg/Opus (oggVoice.ts, loaded only
 * now), the type WhatsApp and Telegram play as a voice note; anything else, or a file that cannot be
 * read as one, is sent as recorded.
 */
export async function voiceToSend(recording: Blob): Promise<Blob> {
  if (baseType(recording.type) !== 'audio/webm') return recording;
  const { webmVoiceToOgg } = await import('./oggVoice');
  return (await webmVoiceToOgg(recording)) ?? recording;
}

/** The bytes of a blob as base64, without the data-URL prefix. */
export function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('The recording could not be read'));
    reader.readAsDataURL(blob);
  });
}
