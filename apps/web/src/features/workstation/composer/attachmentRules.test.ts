import { describe, expect, it } from 'vitest';
import { markdownImages, planOutgoing, textLimit, typeFromName, uploadProblem, type SentAnnex } from './attachmentRules';

const annex = (uuid: string): SentAnnex => ({
  uuid,
  content_type: 'image/png',
  original_filename: `${uuid}.png`,
  uri: `/api/v1/storage/files/${uuid}`,
  size: 10,
});

describe('uploadProblem', () => {
  // Size below 5 MB ('Maximum file size exceeded (N MB)').
  it('refuses a file over 5 MB with the size message', () => {
    expect(uploadProblem({ name: 'big.png', size: 5 * 1024 * 1024 + 1, type: 'image/png' })).toEqual({
      phrase: 'Maximum file size exceeded ({{size}} MB)',
      values: { size: 5 },
    });
  });
  it('accepts a file of exactly 5 MB of an allowed type', () => {
    expect(uploadProblem({ name: 'ok.pdf', size: 5 * 1024 * 1024, type: 'application/pdf' })).toBeNull();
  });
  // Supported type ('{type} is not supported.').
  it('refuses a type the contract does not allow, naming the type', () => {
    expect(uploadProblem({ name: 'run.exe', size: 10, type: 'application/x-msdownload' })).toEqual({
      phrase: '{{type}} is not supported.',
      values: { type: 'application/x-msdownload' },
    });
  });
  it('names the file when the browser knows no type', () => {
    expect(uploadProblem({ name: 'notes.xyz', size: 10, type: '' })).toEqual({
      phrase: '{{type}} is not supported.',
      values: { type: 'notes.xyz' },
    });
  });
  it('ignores type parameters', () => {
    expect(uploadProblem({ name: 'a.txt', size: 10, type: 'text/plain;charset=utf-8' })).toBeNull();
  });
});

describe('markdownImages', () => {
  // Pasted markdown images are fetched and re-uploaded.
  it('takes the images out of pasted text and keeps the rest', () => {
    const pasted = 'Veja:\n![logo](https://example.com/img/logo.png "Logo")\ne também ![](http://cdn.test/a.jpg?x=1)';
    expect(markdownImages(pasted)).toEqual({
      images: [
        { alt: 'logo', url: 'https://example.com/img/logo.png' },
        { alt: '', url: 'http://cdn.test/a.jpg?x=1' },
      ],
      rest: 'Veja:\n\ne também',
    });
  });
  it('closes the gap an image leaves in a line', () => {
    expect(markdownImages('nosso logo ![logo](https://a.test/l.png) e mais').rest).toBe('nosso logo e mais');
  });
  it('leaves text without images untouched, links included', () => {
    const text = 'a [link](https://x.test) and ![not an url](relative.png)  ';
    expect(markdownImages(text)).toEqual({ images: [], rest: text });
  });
});

describe('planOutgoing', () => {
  it('sends the text alone when nothing is attached', () => {
    expect(planOutgoing({ text: ' oi ', attachments: [], internal: false, replyToUuid: 'r' })).toEqual([
      { content: 'oi', internal: false, replyToUuid: 'r' },
    ]);
  });
  it('sends each attachment as its own message with its description, the reply on the first', () => {
    const out = planOutgoing({
      text: '',
      attachments: [
        { annex: annex('a'), description: 'first' },
        { annex: annex('b'), description: '' },
      ],
      internal: true,
      replyToUuid: 'r',
    });
    expect(out.map((o) => [o.annexUuid, o.content, o.replyToUuid, o.internal])).toEqual([
      ['a', 'first', 'r', true],
      ['b', '', null, true],
    ]);
  });
  it('puts the typed text on the last attachment when it has no description', () => {
    const out = planOutgoing({
      text: 'segue o arquivo',
      attachments: [{ annex: annex('a'), description: '' }],
      internal: false,
      replyToUuid: null,
    });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ annexUuid: 'a', content: 'segue o arquivo' });
  });
  it('sends the typed text after the files when the last one has its own description', () => {
    const out = planOutgoing({
      text: 'texto',
      attachments: [{ annex: annex('a'), description: 'desc' }],
      internal: false,
      replyToUuid: null,
    });
    expect(out.map((o) => [o.annexUuid, o.content])).toEqual([
      ['a', 'desc'],
      [undefined, 'texto'],
    ]);
  });
});

describe('typeFromName', () => {
  it('guesses the type of a stored file from its extension', () => {
    expect(typeFromName('Tabela.PDF')).toBe('application/pdf');
    expect(typeFromName('foto.jpeg')).toBe('image/jpeg');
    expect(typeFromName('sem-extensao')).toBe('application/octet-stream');
  });
});

describe('channel capabilities in the composer', () => {
  it('leaves channels without their own limits to the upload rules', () => {
    expect(uploadProblem({ name: 'a.webm', size: 10, type: 'audio/webm' }, 'whatsapp_cloud')).toBeNull();
    expect(textLimit('custom', { text: 'x'.repeat(5000), attachments: [] })).toBeNull();
  });
  it("counts a Telegram text against 4096 characters, or 1024 when it becomes an attachment's caption", () => {
    expect(textLimit('telegram', { text: 'Olá', attachments: [] })).toEqual({ max: 4096, length: 3, over: false, captionMax: 1024 });
    expect(textLimit('telegram', { text: 'x'.repeat(4097), attachments: [] })?.over).toBe(true);
    expect(textLimit('telegram', { text: 'x'.repeat(1025), attachments: [{ description: '' }] })).toMatchObject({ max: 1024, over: true });
    // With a description the text goes as its own message: the message limit applies, the description is the caption.
    expect(textLimit('telegram', { text: 'x'.repeat(1025), attachments: [{ description: 'foto' }] })).toMatchObject({
      max: 4096,
      over: false,
    });
    expect(textLimit('telegram', { text: '', attachments: [{ description: 'y'.repeat(1025) }] })?.over).toBe(true);
  });
});

describe('SMS in the composer', () => {
  it('refuses every file before upload while MMS is off, and takes MMS types once it is on', () => {
    const png = { name: 'foto.png', size: 1000, type: 'image/png' };
    expect(uploadProblem(png, 'sms')).toEqual({ phrase: 'This channel takes no attachments (MMS is off)', values: {} });
    expect(uploadProblem(png, 'sms', { mms_enabled: 'false' })).toEqual({
      phrase: 'This channel takes no attachments (MMS is off)',
      values: {},
    });
    expect(uploadProblem(png, 'sms', { mms_enabled: 'true' })).toBeNull();
    expect(uploadProblem({ name: 'a.webm', size: 10, type: 'audio/webm' }, 'sms', { mms_enabled: 'true' })).toEqual({
      phrase: 'This channel does not take {{type}} files',
      values: { type: 'audio/webm' },
    });
  });
  it('counts segments while typing: GSM-7 160/153, UCS-2 70/67, and the 1600-character limit', () => {
    expect(textLimit('sms', { text: 'Olá', attachments: [] })).toMatchObject({
      max: 1600,
      over: false,
      segments: { encoding: 'UCS-2', segments: 1, left: 67 },
    });
    expect(textLimit('sms', { text: 'a'.repeat(20), attachments: [] })?.segments).toEqual({
      encoding: 'GSM-7',
      segments: 1,
      units: 20,
      left: 140,
    });
    expect(textLimit('sms', { text: 'a'.repeat(170), attachments: [] })?.segments).toMatchObject({ segments: 2, left: 136 });
    expect(textLimit('sms', { text: 'x'.repeat(1601), attachments: [] })?.over).toBe(true);
    expect(textLimit('telegram', { text: 'Olá', attachments: [] })).not.toHaveProperty('segments');
  });
});
