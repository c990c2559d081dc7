import { bytesMatchType } from './sniff';

/** Why a file may not be kept: a type the desk does not take, or bytes that are not the type claimed. */
export interface FileRefusal {
  code: 'file_type_not_allowed' | 'file_content_mismatch';
  /** The declared media type, without parameters ('image/svg+xml'). */
  type: string;
}

/**
 * The one file-type policy for every way a file enters: an agent's upload, a
 * livechat visitor's voice note, and the media of every provider's messages (WhatsApp, Telegram,
 * SMS MMS, Messenger and Instagram, e-mail attachments). A file is kept only when its type is one of
 * `accepted` (the contract's UPLOAD_ALLOWED_TYPES: no HTML, SVG or script, which a browser could run
 * from our origin) and its first bytes do not contradict that type. Null when it may be kept.
 */
export function fileTypeRefusal(file: { contentType: string; bytes: Buffer }, accepted: readonly string[]): FileRefusal | null {
  const type = (file.contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (!accepted.includes(type)) return { code: 'file_type_not_allowed', type: type || 'application/octet-stream' };
  if (!bytesMatchType(file.bytes, type)) return { code: 'file_content_mismatch', type };
  return null;
}
