import { ticketAnnouncement } from '@atende/core';
import { sectorTicketSettings } from '@atende/db';
import type { Effects, Tx } from './engine';
import { sendSystemText } from './system-text';

/**
 * A conversation entering a sector's queue (new, from a menu or a bot, transferred
 * to the sector) sends the contact the sector's ticket message when the sector announces tickets;
 * in the same transaction as the queue entry, so it goes out once with it.
 */
export async function announceTicket(
  tx: Tx,
  effects: Effects,
  conv: { id: string; tenantId: string; sectorId: string | null; ticketNumber: number },
  at: Date,
): Promise<void> {
  if (!conv.sectorId) return;
  const sector = await sectorTicketSettings(tx, conv.tenantId, conv.sectorId);
  if (!sector?.ticketAnnounce || !sector.ticketMessage?.trim()) return;
  await sendSystemText(
    tx,
    effects,
    { tenantId: conv.tenantId, conversationId: conv.id },
    ticketAnnouncement(sector.ticketMessage, conv.ticketNumber, sector.name),
    at,
    ['ticket'],
  );
}
