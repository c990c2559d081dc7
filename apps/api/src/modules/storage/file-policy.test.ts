import { UPLOAD_ALLOWED_TYPES } from '@atende/contract';
import { fileTypeRefusal } from '@atende/storage';
import { describe, expect, it } from 'vitest';

// One file-type policy for every way a file enters. It must refuse what a browser
// could run from our origin, and keep what phones and the WhatsApp providers really send.
const ftyp = (brand: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(16)]);
const policy = (contentType: string, bytes: Buffer) => fileTypeRefusal({ contentType, bytes }, UPLOAD_ALLOWED_TYPES);

describe('the file-type policy', () => {
  it('keeps an AMR voice note, a 3GPP video, an iPhone video and a PowerPoint deck', () => {
    expect(policy('audio/amr', Buffer.from('#!AMR\n\x3c\x91', 'latin1'))).toBeNull();
    expect(policy('video/3gpp', ftyp('3gp4'))).toBeNull();
    expect(policy('video/quicktime', ftyp('qt  '))).toBeNull();
    expect(
      policy('application/vnd.openxmlformats-officedocument.presentationml.presentation', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0])),
    ).toBeNull();
    expect(policy('application/vnd.ms-powerpoint', Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))).toBeNull();
  });

  it('refuses HTML and SVG, and bytes that contradict the declared type', () => {
    expect(policy('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toEqual({
      code: 'file_type_not_allowed',
      type: 'image/svg+xml',
    });
    expect(policy('text/html; charset=utf-8', Buffer.from('<html></html>'))).toEqual({ code: 'file_type_not_allowed', type: 'text/html' });
    expect(policy('audio/amr', Buffer.from('MZ\x90\x00', 'latin1'))).toEqual({ code: 'file_content_mismatch', type: 'audio/amr' });
    expect(policy('video/3gpp', Buffer.from('<html>'))).toEqual({ code: 'file_content_mismatch', type: 'video/3gpp' });
  });
});
