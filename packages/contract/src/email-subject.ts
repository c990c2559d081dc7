/**
 * E-mail details kept on a message (its interactive_content, type 'email'): written by the e-mail
 * adapter for a contact's mail, and with a subject alone on an agent's message that starts a thread.
 * Read here, without a schema library, by the worker (threading a reply) and the web (headers, the
 * composer's subject), so both follow one rule.
 */
export interface EmailDetails {
  type: 'email';
  subject: string | null;
  /** Who wrote it: in a thread several people answer (a colleague in copy), each keeps their own. */
  from: { address: string; name: string | null };
  message_id: string;
  in_reply_to: string | null;
  references: string[];
  /** Sanitised HTML part, when the mail had one. */
  html: string | null;
  /** The whole text, quoted history and signature included, when the message text is folded. */
  full_text: string | null;
}

/** What a reader of a stored message uses of its e-mail details (any field may be missing on older rows). */
export interface EmailHeaders {
  subject: string | null;
  /** "Name <address>", or the address alone. */
  from: string | null;
  fullText: string | null;
  /** The thread's Message-IDs before this mail, oldest first. */
  references: string[];
}

const text = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);

/** The e-mail details of a message's interactive part, or null when it is no e-mail's. */
export function emailHeadersOf(details: unknown): EmailHeaders | null {
  if (!details || typeof details !== 'object' || (details as { type?: unknown }).type !== 'email') return null;
  const d = details as { subject?: unknown; from?: unknown; full_text?: unknown; references?: unknown };
  const from = d.from && typeof d.from === 'object' ? (d.from as { address?: unknown; name?: unknown }) : null;
  const address = text(from?.address);
  const name = text(from?.name);
  return {
    subject: text(d.subject),
    from: address ? (name ? `${name} <${address}>` : address) : null,
    fullText: text(d.full_text),
    references: Array.isArray(d.references) ? d.references.filter((r): r is string => typeof r === 'string') : [],
  };
}

/**
 * The subject of the thread a reply answers: the replied mail's, else the latest mail's with one
 * (`details` oldest first); null when no mail had one.
 */
export function threadSubjectOf(details: readonly unknown[], replied?: unknown): string | null {
  const own = emailHeadersOf(replied)?.subject;
  if (own) return own;
  for (let i = details.length - 1; i >= 0; i--) {
    const subject = emailHeadersOf(details[i])?.subject;
    if (subject) return subject;
  }
  return null;
}

/**
 * "Re: <subject>" once, however many replies deep (Re:, RE:, Res:, Fwd: and Enc: prefixes are not
 * repeated): the subject our reply in an e-mail thread goes under, shown in the composer and used by
 * the e-mail adapter.
 */
export function replySubject(subject: string | null): string {
  const base = (subject ?? '').replace(/^(\s*(re|res|fw|fwd|enc)\s*:\s*)+/i, '').trim();
  return base ? `Re: ${base}` : 'Re:';
}
