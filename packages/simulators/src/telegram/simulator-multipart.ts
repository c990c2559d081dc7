/** The multipart/form-data bodies bots upload files with, read by the Telegram simulator (tests and demo only). */
export interface MultipartPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  bytes: Buffer;
}

export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const mark = boundary?.[1] ?? boundary?.[2];
  if (!mark) return null;
  const delimiter = Buffer.from(`--${mark}`);
  const parts: MultipartPart[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const from = start + delimiter.length;
    if (body.subarray(from, from + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, from);
    if (next === -1) return null;
    const part = body.subarray(from + 2, next - 2); // the CRLF after the delimiter and before the next one
    const split = part.indexOf('\r\n\r\n');
    if (split === -1) return null;
    const head = part.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    parts.push({
      name,
      filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null,
      contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? null,
      bytes: Buffer.from(part.subarray(split + 4)),
    });
    start = next;
  }
  return parts;
}
