/**
 * What the first bytes of a file say it is, for the types whose signature we know. A declared type
 * that contradicts the bytes is refused (a renamed executable is not an image).
 */
const SIGNATURES: { type: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  { type: 'image/webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'audio/wav', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WAVE' },
  { type: 'application/pdf', test: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' },
  { type: 'audio/ogg', test: (b) => b.subarray(0, 4).toString('latin1') === 'OggS' },
  { type: 'audio/amr', test: (b) => b.subarray(0, 5).toString('latin1') === '#!AMR' },
  { type: 'webm', test: (b) => b.subarray(0, 4).equals(Buffer.from([0x1a, 0x45, 0xdf, 0xa3])) },
  { type: 'mp4', test: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' },
  { type: 'zip', test: (b) => b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) },
  { type: 'mp3', test: (b) => b.subarray(0, 3).toString('latin1') === 'ID3' || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0) },
  {
    type: 'executable',
    test: (b) => b.subarray(0, 2).toString('latin1') === 'MZ' || b.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])),
  },
];

/** Which signature families each allowed type may carry; types not listed are checked loosely. */
const EXPECTED: Record<string, string[]> = {
  'image/jpeg': ['image/jpeg'],
  'image/png': ['image/png'],
  'image/gif': ['image/gif'],
  'image/webp': ['image/webp'],
  'application/pdf': ['application/pdf'],
  'audio/ogg': ['audio/ogg'],
  'audio/webm': ['webm'],
  'video/webm': ['webm'],
  'video/mp4': ['mp4'],
  'audio/mp4': ['mp4'],
  'video/3gpp': ['mp4'],
  'audio/wav': ['audio/wav'],
  'audio/mpeg': ['mp3'],
  'audio/amr': ['audio/amr'],
  'application/zip': ['zip'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['zip'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['zip'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['zip'],
};

export function sniff(bytes: Buffer): string | null {
  return SIGNATURES.find((s) => s.test(bytes))?.type ?? null;
}

/** Whether the bytes may honestly be of the declared type. */
export function bytesMatchType(bytes: Buffer, declared: string): boolean {
  const found = sniff(bytes);
  if (found === 'executable') return false;
  const expected = EXPECTED[declared];
  if (expected) return found !== null && expected.includes(found);
  if (declared.startsWith('text/')) return !bytes.includes(0);
  return true;
}

/** A file name safe to store and to send back: no path, no control characters, at most 255 characters. */
export function safeFilename(name: string | undefined, fallback = 'file'): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // Control characters, quotes, and the bidi controls that make 'invoice\u202Efdp.exe' read as
  // 'invoiceexe.pdf'.
  const clean = base
    .replace(/[\u0000-\u001f\u007f"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/^\.+/, '')
    .trim();
  return (clean || fallback).slice(0, 255);
}
