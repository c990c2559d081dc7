/** sanitize-html (with postcss and htmlparser2) is loaded with the first HTML mail, not when the process starts. */
const loadSanitizer = async () => (await import('sanitize-html')).default;

/**
 * What an agent reads of an e-mail: HTML is sanitised (sanitize-html, an allow
 * list: no scripts, styles, event handlers, forms or remote images) before it is stored or shown,
 * and the quoted history and the signature are folded away from the message text while the full
 * text stays on the message (details.full_text).
 */
export async function sanitizeEmailHtml(html: string): Promise<string> {
  const sanitizeHtml = await loadSanitizer();
  return sanitizeHtml(html, {
    allowedTags: [
      'p',
      'br',
      'div',
      'span',
      'b',
      'strong',
      'i',
      'em',
      'u',
      's',
      'a',
      'ul',
      'ol',
      'li',
      'blockquote',
      'pre',
      'code',
      'h1',
      'h2',
      'h3',
      'h4',
      'table',
      'thead',
      'tbody',
      'tr',
      'td',
      'th',
      'hr',
    ],
    allowedAttributes: { a: ['href', 'title'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    // Remote images track the reader and inline ones are stored as annexes: none are kept in the HTML.
    exclusiveFilter: (frame) => frame.tag === 'img',
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
  });
}

/** Plain text of sanitised HTML, for mail that comes without a text part. */
export async function textOfHtml(html: string): Promise<string> {
  const sanitizeHtml = await loadSanitizer();
  const withBreaks = html.replace(/<(br|\/p|\/div|\/li|\/tr|\/h\d)\s*\/?>/gi, '\n');
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Lines that start the quoted history in the common clients (Gmail, Outlook, Apple Mail, Thunderbird), in English and Portuguese. */
const QUOTE_HEADERS = [
  /^On .{1,300}wrote:\s*$/i,
  /^Em .{1,300}escreveu:\s*$/i,
  /^-{2,}\s*(Original Message|Mensagem original|Forwarded message|Mensagem encaminhada)\s*-{2,}/i,
  /^_{10,}\s*$/,
  /^(From|De):\s.+/i,
];

/**
 * An "On … wrote:" / "Em … escreveu:" line that the sender's client wrapped over two or three lines
 * (Gmail breaks a long one inside the address: "… Loja <" then "suporte@loja.test> wrote:").
 */
function wrappedAttribution(lines: readonly string[], i: number): boolean {
  const first = lines[i]!.trim();
  if (!/^(On|Em)\s/i.test(first)) return false;
  let joined = first;
  for (const next of lines.slice(i + 1, i + 3)) {
    joined = `${joined} ${next.trim()}`;
    if (QUOTE_HEADERS.slice(0, 2).some((re) => re.test(joined))) return true;
  }
  return false;
}

/**
 * The new part of a reply: everything before the first quote header or the first run of '>' lines,
 * and before the signature delimiter ("-- ", RFC 3676) or a mobile client's "Sent from my..".
 * Answers the full text when folding would leave nothing.
 */
export function foldQuotedText(text: string): { visible: string; folded: boolean } {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (
      line === '-- ' ||
      trimmed === '--' ||
      /^(Sent from my|Enviado do meu)\s/i.test(trimmed) ||
      trimmed.startsWith('>') ||
      QUOTE_HEADERS.some((re) => re.test(trimmed)) ||
      wrappedAttribution(lines, i)
    ) {
      end = i;
      break;
    }
  }
  const visible = lines.slice(0, end).join('\n').trim();
  if (!visible) return { visible: text.trim(), folded: false };
  return { visible, folded: end < lines.length };
}

/** Outlook's "[cid:image001.png@01DB…]": what its plain-text part holds where the HTML shows an inline image. */
const CID_PLACEHOLDER = /\[cid:[^\]\r\n]{1,500}\]/gi;

/**
 * The text without Outlook's inline-image placeholders: the image is an annex or layout (a
 * signature logo), never words to read. A line that held only placeholders goes with them; the
 * other lines are kept as they are.
 */
export function withoutImagePlaceholders(text: string): string {
  const lines = text.split('\n').flatMap((line) => {
    const rest = line.replace(CID_PLACEHOLDER, '');
    if (rest === line) return [line];
    return rest.trim() ? [rest.trimEnd()] : [];
  });
  return lines.join('\n').trim();
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The simple HTML part of an agent's text: escaped, line breaks kept. */
export function htmlOfText(text: string): string {
  return `<div style="font-family:sans-serif;white-space:pre-wrap">${escapeHtml(text).replace(/\n/g, '<br>')}</div>`;
}
