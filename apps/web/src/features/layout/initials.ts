/** Avatar initials: the first letters of the first two words, else the first two letters. */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s._@-]+/)
    .filter(Boolean);
  const first = words[0] ?? '';
  const second = words[1] ?? '';
  const letters = second ? `${first.charAt(0)}${second.charAt(0)}` : first.slice(0, 2);
  return letters.toUpperCase() || '?';
}

/**
 * How a contact is named on screen: its name, else its phone number, else its e-mail,
 * never an empty line. Phones show as stored (E.164): the formatting library stays out of the list's code.
 */
export function contactLabel(contact: { name: string; phone_number?: string | null; email?: string | null }): string {
  return contact.name.trim() || contact.phone_number?.trim() || contact.email?.trim() || '--';
}
