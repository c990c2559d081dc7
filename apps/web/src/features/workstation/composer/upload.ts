import { uploadFile, uploadFileFromUrl, type StoredFileSchema } from '@atende/contract';
import type { z } from 'zod';
import { api } from '../../../api/client';
import { base64Of, type VoiceType } from './voiceRules';

export type StoredFile = z.infer<typeof StoredFileSchema>;

/**
 * Uploads may take long on a slow line; the shared handler treats a time-out (408) as the end of the
 * session, so the limit is generous: 5 MB at ~100 kB/s.
 */
const UPLOAD_TIMEOUT_MS = 120_000;

/**
 * fetch over XMLHttpRequest, the one browser API that reports upload progress. The typed client keeps
 * the rest: path, credentials, error parsing and the shared error handler.
 */
function fetchWithProgress(onProgress: (fraction: number) => void): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(init?.method ?? 'GET', typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      xhr.withCredentials = true;
      for (const [name, value] of Object.entries((init?.headers ?? {}) as Record<string, string>)) xhr.setRequestHeader(name, value);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => {
        const empty = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
        resolve(new Response(empty ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText }));
      };
      xhr.onerror = () => reject(new TypeError('Network error'));
      const signal = init?.signal;
      if (signal) {
        if (signal.aborted) return reject(signal.reason as Error);
        signal.addEventListener('abort', () => {
          xhr.abort();
          reject(signal.reason as Error);
        });
      }
      xhr.send((init?.body ?? null) as XMLHttpRequestBodyInit | null);
    });
}

/**
 * One attachment (POST /api/v1/storage/files, multipart field "file"), with progress.
 * Cancelling (the chip removed) is not an error anybody needs to see: it skips the shared handler.
 */
export async function uploadAttachment(
  file: File,
  options: { onProgress(fraction: number): void; cancel: AbortSignal },
): Promise<StoredFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  const shared = api.options.onError;
  const client = {
    ...api.options,
    timeoutMs: UPLOAD_TIMEOUT_MS,
    fetch: (input: RequestInfo | URL, init?: RequestInit) =>
      fetchWithProgress(options.onProgress)(input, {
        ...init,
        signal: init?.signal ? AbortSignal.any([init.signal, options.cancel]) : options.cancel,
      }),
    onError: (...args: Parameters<NonNullable<typeof shared>>) => {
      if (!options.cancel.aborted) shared?.(...args);
    },
  };
  const res = await api.call(client, uploadFile, { body: form });
  return res.data.data;
}

/** A recorded voice note: JSON with the base64 content; the answer's uuid goes on the message. */
export async function uploadVoice(recording: Blob, contentType: VoiceType): Promise<StoredFile> {
  const file = await base64Of(recording);
  const extension = contentType.split('/')[1] ?? 'webm';
  const res = await api.call({ ...api.options, timeoutMs: UPLOAD_TIMEOUT_MS }, uploadFile, {
    body: { file, encoding: 'base64', content_type: contentType, filename: `voice-${Date.now()}.${extension}` },
  });
  return res.data.data;
}

/** Answers about the address itself (refused, unreachable, an error, not a URL): the composer words them. */
export const IMAGE_ADDRESS_FAILURES: readonly string[] = [
  'outbound_address_not_allowed',
  'remote_file_unavailable',
  'url_invalid',
  'validation_failed',
];

/**
 * A pasted markdown image, downloaded and stored by the server so the app's pages
 * connect to no other site. A refusal of the file itself (size, type) and session answers still go
 * to the shared handler, unless the chip was removed meanwhile (`wanted` false).
 */
export async function storeImageFromUrl(image: { url: string; alt: string }, wanted: () => boolean): Promise<StoredFile> {
  const shared = api.options.onError;
  const client = {
    ...api.options,
    onError: (...args: Parameters<NonNullable<typeof shared>>) => {
      if (!IMAGE_ADDRESS_FAILURES.includes(args[0].code) && wanted()) shared?.(...args);
    },
  };
  const res = await api.call(client, uploadFileFromUrl, {
    body: { url: image.url, ...(image.alt ? { alt: image.alt.slice(0, 255) } : {}) },
  });
  return res.data.data;
}
