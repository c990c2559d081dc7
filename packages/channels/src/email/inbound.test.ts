import { describe, expect, it } from 'vitest';
import { INLINE_IMAGE_MIN_BYTES, INLINE_MEDIA_PREFIX, parseEmail } from './inbound';

/** A base64 body of `size` bytes that starts like a PNG, wrapped at 76 characters as MIME writes it. */
function pngPart(size: number, fill: number): string {
  const bytes = Buffer.alloc(size, fill);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
  return (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** A mail as a webmail writes a photo pasted into the body: HTML with cid: images, a signature icon beside it. */
function mailWithInlineImages(): Buffer {
  const lines = [
    'From: Carla Dias <carla@cliente.test>',
    'To: suporte@loja.test',
    'Subject: Defeito no produto',
    'Message-ID: <inline-photo-1@cliente.test>',
    'Date: Wed, 26 Nov 2026 09:15:00 -0300',
    'MIME-Version: 1.0',
    'Content-Type: multipart/related; boundary="rel"',
    '',
    '--rel',
    'Content-Type: text/html; charset=UTF-8',
    '',
    '<p>Veja a foto do defeito:</p><img src="cid:photo@cliente.test"><p>Carla</p><img src="cid:icon@cliente.test">',
    '--rel',
    'Content-Type: image/png; name="foto.png"',
    'Content-Transfer-Encoding: base64',
    'Content-ID: <photo@cliente.test>',
    'Content-Disposition: inline; filename="foto.png"',
    '',
    pngPart(INLINE_IMAGE_MIN_BYTES * 3, 7),
    '--rel',
    'Content-Type: image/png; name="icon.png"',
    'Content-Transfer-Encoding: base64',
    'Content-ID: <icon@cliente.test>',
    'Content-Disposition: inline; filename="icon.png"',
    '',
    pngPart(300, 9),
    '--rel--',
    '',
  ];
  return Buffer.from(lines.join('\r\n'));
}

describe('e-mail inbound', () => {
  it('keeps a photo shown inline (cid:) as the message attachment, and leaves out a signature icon', async () => {
    const events = await parseEmail(mailWithInlineImages());
    expect(events).toHaveLength(1);
    const [message] = events;
    if (message?.kind !== 'message') throw new Error('expected a message');
    expect(message.text).toBe('Veja a foto do defeito:\nCarla');
    expect(message.media).toMatchObject({ contentType: 'image/png', filename: 'foto.png' });
    const bytes = Buffer.from(message.media!.ref.slice(INLINE_MEDIA_PREFIX.length), 'base64');
    expect(bytes.length).toBe(INLINE_IMAGE_MIN_BYTES * 3);
  });
});
