import { describe, expect, it } from 'vitest';
import { outboundPolicy, resolveAllowedHost } from '../outbound-address';
import { replySubject } from '@atende/contract';
import { foldQuotedText, htmlOfText, sanitizeEmailHtml, textOfHtml, withoutImagePlaceholders } from './mail-text';

// What an agent reads of an e-mail, and how our replies are titled.
describe('e-mail text', () => {
  it('folds the quoted history of the common clients and the signature, keeping the new part', () => {
    expect(foldQuotedText('Sim, pode enviar.\n\nOn Tue, 25 Nov 2026 at 10:00, Loja <s@loja.test> wrote:\n> Podemos enviar?')).toEqual({
      visible: 'Sim, pode enviar.',
      folded: true,
    });
    expect(foldQuotedText('Obrigada!\n\nEm ter., 25 de nov. de 2026 às 10:00, Loja escreveu:\n> Olá')).toEqual({
      visible: 'Obrigada!',
      folded: true,
    });
    expect(foldQuotedText('Ok\n-----Original Message-----\nFrom: x')).toEqual({ visible: 'Ok', folded: true });
    // Gmail wraps a long attribution inside the address; the wrapped line must not leak into the reply.
    expect(
      foldQuotedText('Pode sim.\n\nOn Tue, Nov 25, 2026 at 10:00 AM Loja Exemplo Atendimento <\nsuporte@loja.test> wrote:\n\n> Podemos?'),
    ).toEqual({ visible: 'Pode sim.', folded: true });
    expect(
      foldQuotedText('Combinado.\n\nEm ter., 25 de nov. de 2026 às 10:00, Loja Exemplo\nAtendimento <suporte@loja.test>\nescreveu:\n> Olá'),
    ).toEqual({ visible: 'Combinado.', folded: true });
    // A line that merely starts with "On" is no attribution.
    expect(foldQuotedText('On Monday I can.\nThanks')).toEqual({ visible: 'On Monday I can.\nThanks', folded: false });
    expect(foldQuotedText('Até logo\n-- \nAna Souza\nDiretora')).toEqual({ visible: 'Até logo', folded: true });
    expect(foldQuotedText('Oi\n\nEnviado do meu iPhone')).toEqual({ visible: 'Oi', folded: true });
    expect(foldQuotedText('Sem citação\nduas linhas')).toEqual({ visible: 'Sem citação\nduas linhas', folded: false });
    // Only a quote: nothing would be left, so the whole text is shown.
    expect(foldQuotedText('> só citação')).toEqual({ visible: '> só citação', folded: false });
  });

  it("leaves out Outlook's [cid:…] image placeholders, and the lines that held only them", () => {
    expect(withoutImagePlaceholders('Carlos Pereira\n[cid:image001.png@01DB5F2A.3C4D5E60]')).toBe('Carlos Pereira');
    expect(withoutImagePlaceholders('Veja: [cid:image002.jpg@01DB5F2A.3C4D5E60] a foto\n\n\nAté')).toBe('Veja:  a foto\n\n\nAté');
    expect(withoutImagePlaceholders('[cid:a.png@1][cid:b.png@2]\nOi')).toBe('Oi');
    expect(withoutImagePlaceholders('Sem [imagem] aqui')).toBe('Sem [imagem] aqui');
  });

  it('keeps formatting and links of HTML but drops scripts, styles, handlers, images and unsafe links', async () => {
    const html = await sanitizeEmailHtml(
      '<p style="color:red" onclick="x()">Oi <b>Ana</b> <a href="https://loja.test/p">pedido</a> <a href="javascript:alert(1)">x</a></p><script>alert(1)</script><style>p{}</style><img src="https://t.test/p.gif"><iframe src="https://e.test"></iframe>',
    );
    expect(html).toContain('<b>Ana</b>');
    expect(html).toContain('href="https://loja.test/p"');
    expect(html).not.toMatch(/script|style|onclick|javascript:|<img|iframe/i);
    expect(await textOfHtml('<p>Linha 1</p><p>Linha 2 &amp; mais</p>')).toBe('Linha 1\nLinha 2 & mais');
  });

  it('titles a reply "Re: <subject>" once however deep the thread, and escapes the HTML part', () => {
    expect(replySubject('Pedido 123')).toBe('Re: Pedido 123');
    expect(replySubject('RE: Res: Fwd: Pedido 123')).toBe('Re: Pedido 123');
    expect(replySubject(null)).toBe('Re:');
    expect(htmlOfText('a <b>\nc')).toContain('a &lt;b&gt;<br>c');
  });

  it('resolves an SMTP host only to allowed addresses (the outbound policy, not a copy)', async () => {
    const strict = outboundPolicy('');
    await expect(resolveAllowedHost('127.0.0.1', strict)).rejects.toThrow('refused');
    await expect(resolveAllowedHost('mail.test', strict, async () => [{ address: '10.0.0.7' }])).rejects.toThrow('not a public address');
    await expect(
      resolveAllowedHost('mail.test', strict, async () => [{ address: '93.184.216.34' }, { address: '192.168.1.1' }]),
    ).rejects.toThrow('192.168.1.1');
    expect(await resolveAllowedHost('mail.test', strict, async () => [{ address: '93.184.216.34' }])).toBe('93.184.216.34');
    expect(await resolveAllowedHost('127.0.0.1', outboundPolicy('127.0.0.1'))).toBe('127.0.0.1');
  });
});
