import { PAGE_LIMIT_MAX, type BotHistoryRow } from '@atende/contract';
import { botPassRows, type Db, type ReportPeriod, type WorkspaceScope } from '@atende/db';

/**
 * A page of the passes of conversations through bot flows and automated menus (one flow or menu when
 * `botId` is given), newest first, with how many there are in all.
 */
export async function botHistoryPage(
  db: Db,
  ws: WorkspaceScope,
  period: ReportPeriod,
  botId: string | undefined,
  page: { _limit: number; _offset: number },
): Promise<{ data: BotHistoryRow[]; pagination: { total: number; limit: number; offset: number } }> {
  const rows = await botPassRows(db, ws, period, botId, { limit: page._limit === 0 ? PAGE_LIMIT_MAX : page._limit, offset: page._offset });
  return {
    // A page past the last row has one row of nulls, carrying the total.
    data: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        conversation_uuid: r.id,
        ticket_number: r.ticket,
        contact: { name: r.contact, phone: r.phone },
        channel: { uuid: r.channelId, name: r.channel },
        bot: { uuid: r.botId, name: r.bot, kind: r.kind },
        outcome: r.outcome,
        at: r.at.toISOString(),
      })),
    pagination: { total: Number(rows[0]?.total ?? 0), limit: page._limit, offset: page._offset },
  };
}
