/**
 * A sector's ticket announcement (sector: ticket announce flag, ticket message): the text
 * the contact receives when the conversation enters the sector's queue. `{{ticket}}` and `{{sector}}`
 * are replaced; a message without `{{ticket}}` is followed by the number, so it is always announced.
 */
export function ticketAnnouncement(message: string, ticketNumber: number, sectorName: string): string {
  const text = message.trim();
  const filled = text.replace(/\{\{\s*sector\s*\}\}/gi, sectorName);
  return /\{\{\s*ticket\s*\}\}/i.test(filled)
    ? filled.replace(/\{\{\s*ticket\s*\}\}/gi, String(ticketNumber))
    : `${filled} ${ticketNumber}`;
}
