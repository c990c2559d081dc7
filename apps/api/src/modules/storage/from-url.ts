import { outboundClient, outboundUrl, refusalOf, statusLine, type OutboundClient } from '@atende/channels';
import { AppError, UPLOAD_MAX_BYTES, URL_IMAGE_TYPES } from '@atende/contract';
import { safeFilename } from '@atende/storage';
import { OUTBOUND_REFUSED_MESSAGE } from '../../outbound-url';
import { payloadTooLarge } from '../../payload-limit';

/** Downloads per user and window: each one is a request our server makes to an address the user chose. */
export const URL_DOWNLOADS = { limit: 30, windowSeconds: 60 } as const;

/** A pasted image's site answers at once or not at all, and the agent waits for the chip meanwhile. */
const DOWNLOAD_TIME_MS = 15_000;

/**
 * The guarded client for these downloads (private addresses refused unless OUTBOUND_ALLOW_HOSTS
 * lists them, redirects re-checked). Its byte cap is a backstop above the upload limit, which the
 * reader below enforces itself so that an oversized image answers 413, not a broken download.
 */
export const urlDownloadClient = (allowHosts: string): OutboundClient =>
  outboundClient({ allowHosts, maxTimeMs: DOWNLOAD_TIME_MS, maxBytes: UPLOAD_MAX_BYTES + 1024 * 1024 });

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

const unavailable = (reason: string) =>
  new AppError('remote_file_unavailable', 'The file could not be downloaded from this address', undefined, { reason });

/**
 * The file's name: the address's last path segment, else the image's alt text, else "image", with
 * the extension of its type when it has none ('https://a.test/p/foto%20azul.png?v=2' is "foto azul.png").
 */
export function fileNameOf(url: URL, contentType: string, alt = ''): string {
  let fromUrl = '';
  try {
    fromUrl = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  } catch {
    fromUrl = '';
  }
  const base = safeFilename((fromUrl || alt.trim()).replace(/[\\/:*?"<>|]/g, '_').slice(0, 200), 'image');
  const extension = EXTENSIONS[contentType];
  return extension && !/\.[a-z0-9]{2,5}$/i.test(base) ? `${base}.${extension}` : base;
}

/** The whole body, refused with 413 as soon as it passes `maxBytes` (never kept cut at the limit). */
async function readCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      throw unavailable('the answer was cut off');
    }
    if (chunk.done) return Buffer.concat(chunks);
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(chunk.value);
  }
}

/**
 * Downloads the file at a user-given address (a pasted markdown image) through the
 * guarded client: a refused address answers 400 outbound_address_not_allowed, one that does not
 * answer or answers an error 422 remote_file_unavailable (its reason a status line, never the remote's
 * text), a file over the upload limit 413. Its type is the answer's Content-Type; the caller checks it.
 */
export async function downloadFromUrl(
  client: OutboundClient,
  raw: string,
  alt?: string,
): Promise<{ bytes: Buffer; contentType: string; filename: string }> {
  let url: URL;
  try {
    url = outboundUrl(raw);
  } catch {
    throw new AppError('url_invalid', 'Invalid URL', [{ path: 'url', message: 'Invalid URL' }]);
  }
  let response: Response;
  try {
    response = await client.fetch(url, { headers: { accept: URL_IMAGE_TYPES.join(', ') } });
  } catch (error) {
    if (refusalOf(error))
      throw new AppError('outbound_address_not_allowed', OUTBOUND_REFUSED_MESSAGE, [{ path: 'url', message: OUTBOUND_REFUSED_MESSAGE }]);
    throw unavailable((error as Error | null)?.name === 'TimeoutError' ? 'no answer in time' : 'no answer');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw unavailable(statusLine(response.status));
  }
  if (Number(response.headers.get('content-length')) > UPLOAD_MAX_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw payloadTooLarge(UPLOAD_MAX_BYTES);
  }
  const bytes = await readCapped(response.body, UPLOAD_MAX_BYTES);
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  return { bytes, contentType, filename: fileNameOf(url, contentType, alt) };
}
