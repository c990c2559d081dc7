import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ChannelTarget } from '../adapter';
import type { InboundEvent, ProviderChannelAdapter } from '../provider';
import { EmailAdapter, RFC822_BASE64 } from './adapter';
import { INLINE_MEDIA_PREFIX } from './inbound';

/**
 * Contract tests against mail as Gmail, Outlook and Apple Mail write it (fixtures/provider-docs/email,
 * whose README says how each message is built and what it shows): multipart/alternative, replies
 * with In-Reply-To / References and a quoted history, an inline picture (cid:), quoted-printable and
 * base64 bodies, an ISO-8859-1 message. A test marked `it.fails` states what a correct parse would
 * be and fails today; its comment says what is wrong.
 */

const adapter: ProviderChannelAdapter = new EmailAdapter();
const channel: ChannelTarget = { uuid: 'ch-email', type: 'email', config: {}, credentials: { webhook_secret: 'docs-secret' } };

/** The files are kept with LF line ends; mail travels with CRLF, as the listener receives it. */
const raw = (name: string) =>
  Buffer.from(readFileSync(new URL(`../fixtures/provider-docs/email/${name}`, import.meta.url), 'utf8').replace(/\r?\n/g, '\r\n'));
/** As the SMTP listener queues a message: its bytes base64-encoded. */
const parse = async (name: string) => adapter.parseWebhook({ rawBody: raw(name).toString('base64'), contentType: RFC822_BASE64 }, channel);

type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;
const message = (from: string, name: string, fields: Partial<MessageEvent> & Pick<MessageEvent, 'externalId' | 'at'>): InboundEvent => ({
  kind: 'message',
  from,
  profileName: name,
  sender: { identifier: from, name, username: null },
  text: null,
  media: null,
  button: null,
  contextExternalId: null,
  ...fields,
});

/** The bytes an inline-media ref carries, by SHA-256 and size. */
function mediaBytes(event: InboundEvent | undefined): { sha256: string; size: number } {
  if (event?.kind !== 'message' || !event.media?.ref.startsWith(INLINE_MEDIA_PREFIX)) throw new Error('expected a message with mail media');
  const bytes = Buffer.from(event.media.ref.slice(INLINE_MEDIA_PREFIX.length), 'base64');
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}
const inlineMedia = (contentType: string, filename: string) => ({
  ref: expect.stringMatching(new RegExp(`^${INLINE_MEDIA_PREFIX}`)),
  contentType,
  filename,
  caption: null,
});

describe('E-mail as Gmail writes it', () => {
  it('takes a new message (multipart/alternative, UTF-8 quoted-printable, encoded subject) as text with its sanitised HTML', async () => {
    const id = '<CAJx7kQ3mVnF0qFQ8rYVbT2mXk3h5Zp4dW9sL1uR6eN0cA8yGbw@mail.gmail.com>';
    expect(await parse('gmail-new-message.eml')).toEqual([
      message('ana.souza@example.com', 'Ana Souza', {
        externalId: id,
        text: 'Olá,\n\nMeu pedido 4521 ainda não chegou. O rastreio parou em São Paulo há uma semana.\n\nObrigada,\nAna',
        at: new Date('2026-11-24T12:41:07Z'),
        details: {
          type: 'email',
          subject: 'Pedido 4521 não chegou',
          from: { address: 'ana.souza@example.com', name: 'Ana Souza' },
          message_id: id,
          in_reply_to: null,
          references: [],
          html: '<div><div>Olá,</div><div><br /></div><div>Meu pedido 4521 ainda não chegou. O rastreio parou em São Paulo há uma semana.</div><div><br /></div><div>Obrigada,</div><div>Ana</div></div>\n',
          full_text: null,
        },
      }),
    ]);
  });

  it('takes a reply with its threading headers, folding the quoted history under the wrapped "On … wrote:" line', async () => {
    const id = '<CAJx7kQ0p2YtW1vR9nB6cH4sF8mD3kL7aG5xE0zQ2uN8rT1wV6g@mail.gmail.com>';
    const answered = '<7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f@loja.example>';
    expect(await parse('gmail-reply.eml')).toEqual([
      message('ana.souza@example.com', 'Ana Souza', {
        externalId: id,
        text: 'Sim, pode enviar outro. Estarei em casa amanhã.',
        contextExternalId: answered,
        at: new Date('2026-11-24T14:15:42Z'),
        details: {
          type: 'email',
          subject: 'Re: Pedido 4521 não chegou',
          from: { address: 'ana.souza@example.com', name: 'Ana Souza' },
          message_id: id,
          in_reply_to: answered,
          references: ['<CAJx7kQ3mVnF0qFQ8rYVbT2mXk3h5Zp4dW9sL1uR6eN0cA8yGbw@mail.gmail.com>', answered],
          html: '<div>Sim, pode enviar outro. Estarei em casa amanhã.</div><br /><div><div>On Tue, Nov 24, 2026 at 11:02 AM Loja Exemplo Atendimento &lt;<a href="mailto:atendimento@loja.example">atendimento@loja.example</a>&gt; wrote:<br /></div><blockquote><div>Olá Ana, podemos reenviar o pedido 4521. Confirma o endereço de entrega?</div><div><br /></div><div>Loja Exemplo</div></blockquote></div>\n',
          full_text:
            'Sim, pode enviar outro. Estarei em casa amanhã.\n\nOn Tue, Nov 24, 2026 at 11:02 AM Loja Exemplo Atendimento <\natendimento@loja.example> wrote:\n\n> Olá Ana, podemos reenviar o pedido 4521. Confirma o endereço de entrega?\n>\n> Loja Exemplo\n>',
        },
      }),
    ]);
  });

  it('takes base64 text parts and makes each attachment an annex, the first on the message, the next its own', async () => {
    const id = '<CAK9vR2pQ7mX4sT1nB8cW3fH6jL0dG5yE2zA9uN4rV7kM1oP3qg@mail.gmail.com>';
    const subject = 'Счёт и ошибка оплаты — заказ 4521';
    const events = await parse('gmail-attachments-base64.eml');
    expect(events).toEqual([
      message('ivan.petrov@example.com', 'Иван Петров', {
        externalId: id,
        text: 'Здравствуйте!\n\nПрикрепляю счёт и скриншот ошибки оплаты по заказу 4521.\n\nС уважением,\nИван Петров',
        media: inlineMedia('application/pdf', 'schet-4521.pdf'),
        at: new Date('2026-11-27T09:03:55Z'),
        details: {
          type: 'email',
          subject,
          from: { address: 'ivan.petrov@example.com', name: 'Иван Петров' },
          message_id: id,
          in_reply_to: null,
          references: [],
          html: '<div><div>Здравствуйте!</div><div><br /></div><div>Прикрепляю счёт и скриншот ошибки оплаты по заказу 4521.</div><div><br /></div><div>С уважением,</div><div>Иван Петров</div></div>\n',
          full_text: null,
        },
      }),
      message('ivan.petrov@example.com', 'Иван Петров', {
        externalId: `${id}#2`,
        media: inlineMedia('image/png', 'oshibka.png'),
        at: new Date('2026-11-27T09:03:55Z'),
        details: { type: 'email', subject, message_id: id },
      }),
    ]);
    expect(mediaBytes(events[0])).toEqual({ sha256: '93e31154c364805a3ef8c904bc257f5ef77600c31b67d392704cd6e1e9cd0657', size: 142 });
    expect(mediaBytes(events[1])).toEqual({ sha256: '23dd1ad395c05c0fc898ab30c79f8644e862bc1b5749edf3933c814fc789bc74', size: 73 });
  });
});

describe('E-mail as Outlook writes it', () => {
  const id = '<DB9PR10MB5523A1B2C3D4E5F60718293A4B5C6D7E8@DB9PR10MB5523.EURPRD10.PROD.OUTLOOK.COM>';
  const answered = '<3f9c2b1e-7a41-4d0e-9b8a-1c2d3e4f5a6b@loja.example>';
  const fullText =
    'Bom dia,\n\nPode ser a troca pelo tamanho M, por favor. A etiqueta de devolução já está colada na caixa.\n\nAtenciosamente,\nCarlos Pereira\n[cid:image001.png@01DB5F2A.3C4D5E60]\n\n________________________________\nDe: Loja Exemplo <atendimento@loja.example>\nEnviado: terça-feira, 24 de novembro de 2026 18:20\nPara: Carlos Pereira <carlos.pereira@example.org>\nAssunto: Troca do produto - confirmação\n\nOlá Carlos, qual tamanho você prefere na troca?\n\nLoja Exemplo';

  it('decodes an ISO-8859-1 reply, keeps its threading, folds the "De: / Enviado:" history and leaves out the signature logo', async () => {
    const events = await parse('outlook-reply-iso-8859-1.eml');
    expect(events).toEqual([
      message('carlos.pereira@example.org', 'Carlos Pereira', {
        externalId: id,
        text: expect.stringMatching(
          /^Bom dia,\n\nPode ser a troca pelo tamanho M, por favor\. A etiqueta de devolução já está colada na caixa\.\n\nAtenciosamente,\nCarlos Pereira/,
        ),
        contextExternalId: answered,
        at: new Date('2026-11-25T14:05:33Z'),
        details: {
          type: 'email',
          subject: 'RE: Troca do produto - confirmação',
          from: { address: 'carlos.pereira@example.org', name: 'Carlos Pereira' },
          message_id: id,
          in_reply_to: answered,
          references: [answered],
          html: expect.stringContaining('<b>Enviado:</b> terça-feira, 24 de novembro de 2026 18:20'),
          full_text: fullText,
        },
      }),
    ]);
    const [event] = events;
    if (event?.kind !== 'message') throw new Error('expected a message');
    // The sanitiser keeps the text and the history's layout, not Outlook's styles or the logo.
    expect(event.details?.html).not.toMatch(/style=|<img|cid:|<meta|Aptos/);
    // The same bytes posted as text (an inbound-parse service) read the same.
    expect(
      await adapter.parseWebhook({ rawBody: raw('outlook-reply-iso-8859-1.eml').toString(), contentType: 'message/rfc822' }, channel),
    ).toEqual(events);
  });

  // Outlook writes "[cid:image001.png@…]" in the plain-text part where the HTML shows an inline image
  // (here the signature logo the parser rightly leaves out): the message text the agent reads goes
  // without it, full_text keeps the mail as written.
  it("leaves Outlook's [cid:…] image placeholder out of the message text", async () => {
    const [event] = await parse('outlook-reply-iso-8859-1.eml');
    expect(event).toMatchObject({
      text: 'Bom dia,\n\nPode ser a troca pelo tamanho M, por favor. A etiqueta de devolução já está colada na caixa.\n\nAtenciosamente,\nCarlos Pereira',
    });
  });
});

describe('E-mail as Apple Mail writes it', () => {
  it('keeps a photo pasted into the body (multipart/related, cid:) as the message annex', async () => {
    const id = '<8D7E6F5A-4B3C-2D1E-0F9A-8B7C6D5E4F3A@example.net>';
    const events = await parse('apple-mail-inline-image.eml');
    expect(events).toEqual([
      message('beatriz.lima@example.net', 'Beatriz Lima', {
        externalId: id,
        text: 'Boa tarde,\n\nA caixa chegou assim (foto abaixo). O produto parece intacto, mas queria registrar antes de abrir.\n\n\n\nBeatriz Lima',
        media: inlineMedia('image/png', 'caixa.png'),
        at: new Date('2026-11-26T15:48:12Z'),
        details: {
          type: 'email',
          subject: 'Foto da caixa danificada',
          from: { address: 'beatriz.lima@example.net', name: 'Beatriz Lima' },
          message_id: id,
          in_reply_to: null,
          references: [],
          html: 'Boa tarde,<div><br /></div><div>A caixa chegou assim (foto abaixo). O produto parece intacto, mas queria registrar antes de abrir.</div><div><br /></div><div></div><div><br /></div><div>Beatriz Lima</div>',
          full_text: null,
        },
      }),
    ]);
    expect(mediaBytes(events[0])).toEqual({ sha256: 'dcc6f8ac4ba73b76e6bc9d8860564ee0b8cb3f4245c15f4dcc2932c31cd9657b', size: 4823 });
  });
});
