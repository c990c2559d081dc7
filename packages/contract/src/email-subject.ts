/**
 * "Re: <subject>" once, however many replies deep (Re:, RE:, Res:, Fwd: and Enc: prefixes are not
 * repeated): the subject our reply in an e-mail thread goes under, shown in the composer and used by
 * the e-mail adapter.
 */
export function replySubject(subject: string | null): string {
  const base = (subject ?? '').replace(/^(\s*(re|res|fw|fwd|enc)\s*:\s*)+/i, '').trim();
  return base ? `Re: ${base}` : 'Re:';
}
