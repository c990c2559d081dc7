import { attachmentRefusal, capabilitiesOf, smsSegments, UPLOAD_ALLOWED_TYPES, UPLOAD_MAX_BYTES, type SmsSegments } from '@atende/contract';
import { phrase } from '../../../i18n/phrase';
import type { Outgoing } from '../useSend';

/** Upload limit in MB as the spec words it (5 MB). */
export const UPLOAD_MAX_MB = UPLOAD_MAX_BYTES / (1024 * 1024);
const ALLOWED = new Set<string>(UPLOAD_ALLOWED_TYPES);

export type UploadProblem =
  | { phrase: 'Maximum file size exceeded ({{size}} MB)'; values: { size: number } }
  | { phrase: '{{type}} is not supported.'; values: { type: string } }
  | { phrase: 'This channel does not take {{type}} files'; values: { type: string } }
  | { phrase: 'This channel takes no attachments (MMS is off)'; values: Record<string, never> }
  | { phrase: 'This channel takes files of at most {{size}} MB'; values: { size: number } };

/**
 * Why a file cannot be uploaded, checked before any byte leaves the browser: size
 * within the limit and a supported type. The server checks both again, against the bytes.
 */
export function uploadProblem(
  file: { name: string; size: number; type: string },
  channelType?: string,
  channelSettings?: Readonly<Record<string, string>>,
): UploadProblem | null {
  if (file.size > UPLOAD_MAX_BYTES) return { phrase: phrase('Maximum file size exceeded ({{size}} MB)'), values: { size: UPLOAD_MAX_MB } };
  const type = baseType(file.type);
  if (!ALLOWED.has(type)) return { phrase: phrase('{{type}} is not supported.'), values: { type: type || file.name } };
  // What the conversation's channel cannot carry is refused here, not after sending.
  // An SMS channel without MMS takes no file at all: said before the upload starts.
  if (channelType && capabilitiesOf(channelType, channelSettings)?.attachments.length === 0)
    return { phrase: phrase('This channel takes no attachments (MMS is off)'), values: {} };
  const refused = channelType ? attachmentRefusal(channelType, { contentType: type, size: file.size }, channelSettings) : null;
  if (refused?.code === 'channel_attachment_type') return { phrase: phrase('This channel does not take {{type}} files'), values: { type } };
  if (refused)
    return {
      phrase: phrase('This channel takes files of at most {{size}} MB'),
      values: { size: Math.floor((refused.maxBytes ?? 0) / (1024 * 1024)) },
    };
  return null;
}

/**
 * The text limit of what pressing send would send on this channel: the caption limit when
 * the text becomes an attachment's caption (planOutgoing), the message limit otherwise; null when
 * the channel has none of its own.
 */
export function textLimit(
  channelType: string,
  input: { text: string; attachments: readonly { description: string }[] },
  channelSettings?: Readonly<Record<string, string>>,
): { max: number; length: number; over: boolean; captionMax: number; segments?: SmsSegments } | null {
  const capabilities = capabilitiesOf(channelType, channelSettings);
  if (!capabilities) return null;
  const last = input.attachments.at(-1);
  const asCaption = last !== undefined && last.description.trim() === '';
  const max = asCaption ? capabilities.maxCaptionLength : capabilities.maxTextLength;
  const length = input.text.trim().length;
  // Each attachment's description is its caption.
  const descriptionOver = input.attachments.some((a) => a.description.trim().length > capabilities.maxCaptionLength);
  const limit = { max, length, over: length > max || descriptionOver, captionMax: capabilities.maxCaptionLength };
  // SMS: what the text costs in segments (GSM-7 160/153, UCS-2 70/67), shown while typing.
  return capabilities.smsSegments ? { ...limit, segments: smsSegments(input.text.trim()) } : limit;
}

/** A MIME type without its parameters: 'audio/webm;codecs=opus' → 'audio/webm'. */
export function baseType(type: string): string {
  return (type.split(';')[0] ?? '').trim().toLowerCase();
}

export interface MarkdownImage {
  alt: string;
  url: string;
}
const MARKDOWN_IMAGE = /!\[([^\]\n]*)\]\((https?:\/\/[^\s)]+)(?:\s+"[^"\n]*")?\)/g;

/**
 * Markdown images in pasted text (fetched and re-uploaded as attachments): the images
 * and the text that remains once they are taken out.
 */
export function markdownImages(text: string): { images: MarkdownImage[]; rest: string } {
  const images: MarkdownImage[] = [];
  const rest = text.replace(MARKDOWN_IMAGE, (_, alt: string, url: string) => {
    images.push({ alt: alt.trim(), url });
    return '';
  });
  // Only text that lost an image is tidied: the gap it left, not the spacing the author chose elsewhere.
  return {
    images,
    rest: images.length
      ? rest
          .replace(/[ \t]{2,}/g, ' ')
          .replace(/[ \t]+\n/g, '\n')
          .replace(/\n{3,}/g, '\n\n')
          .trim()
      : text,
  };
}

const BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  mp4: 'video/mp4',
  webm: 'video/webm',
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
};

/** The type of a stored file known only by its name (a canned response's annex): for the chip's preview. */
export function typeFromName(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) ?? 'application/octet-stream';
}

/** The uploaded file shown on the optimistic copy of its message. */
export interface SentAnnex {
  uuid: string;
  content_type: string;
  original_filename: string;
  uri: string;
  size: number;
}

/**
 * What pressing send sends: each attachment is its own message with its description as the text
 * (annex_uuid + content). The typed text becomes the caption of the last attachment when
 * that one has no description, and is its own message after the files otherwise, so it reads after
 * them either way. A reply applies to the first message only.
 */
export function planOutgoing(input: {
  text: string;
  attachments: readonly { annex: SentAnnex; description: string }[];
  internal: boolean;
  replyToUuid: string | null;
}): Outgoing[] {
  const text = input.text.trim();
  const out: Outgoing[] = input.attachments.map((a) => ({
    content: a.description.trim(),
    internal: input.internal,
    replyToUuid: null,
    annexUuid: a.annex.uuid,
    annex: a.annex,
  }));
  const last = out.at(-1);
  if (text && last && last.content === '') last.content = text;
  else if (text) out.push({ content: text, internal: input.internal, replyToUuid: null });
  const first = out[0];
  if (first) first.replyToUuid = input.replyToUuid;
  return out;
}
