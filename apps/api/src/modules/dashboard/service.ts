import { DASHBOARD_MAX_ROWS, type DashboardConversation, type DashboardState, type DashboardStats, type SectorSla } from '@atende/contract';
import { formatHms } from '@atende/core';
import { dashboardDay, openConversationRows, sectorSlaRows } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

/** An IANA zone Postgres and Intl both know, else UTC (a bad zone never fails the dashboard). */
function safeZone(zone: string): string {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/**
 * Admin dashboard figures, computed by Postgres from the conversation rows: nothing is
 * counted in memory or kept as a running counter that could drift. Live updates come from the
 * conversation events the engine already emits to tenant_{uuid}_metrics; the screens refetch on them.
 */
export class DashboardService {
  constructor(private readonly ctx: AppContext) {}

  async conversations(
    session: Session,
    filter: { state?: DashboardState; sectorUuid?: string },
  ): Promise<{ data: DashboardConversation[]; total: number }> {
    const { rows, total } = await openConversationRows(
      this.ctx.db,
      session.tenantId,
      { state: filter.state, sectorId: filter.sectorUuid },
      DASHBOARD_MAX_ROWS,
    );
    return {
      total,
      data: rows.map((r) => ({
        uuid: r.id,
        state: r.state,
        type: r.type,
        priority: r.priority,
        ticket_number: r.ticketNumber,
        contact: { uuid: r.contactId, name: r.contactName, phone: r.contactPhone },
        user: r.userId !== null && r.username !== null ? { id: r.userId, username: r.username } : null,
        sector: r.sectorId !== null && r.sectorName !== null ? { uuid: r.sectorId, name: r.sectorName } : null,
        channel: { uuid: r.channelId, name: r.channelName, type: r.channelType },
        time_join: r.timeJoin.toISOString(),
        time_answer: r.timeAnswer?.toISOString() ?? null,
        last_message: r.lastAt ? { content: r.lastContent || null, created_at: r.lastAt.toISOString() } : null,
      })),
    };
  }

  /**
   * Today in the caller's zone. First response: from the start of an inbound session to its first
   * answer (outbound sessions begin with the agent's own message, so they have none). Session time:
   * from start to close of the sessions closed today.
   */
  async stats(session: Session, timezone: string): Promise<DashboardStats> {
    const zone = safeZone(timezone);
    const row = await dashboardDay(this.ctx.db, session.tenantId, zone);
    const duration = (seconds: number | null) => ({ time: formatHms(seconds ?? 0), seconds: Math.round(seconds ?? 0) });
    return {
      date: row.date,
      timezone: zone,
      avg_first_response_time: duration(row.firstResponse),
      avg_session_time: duration(row.sessionTime),
      new_sessions: Number(row.newSessions),
      opened_sessions: Number(row.openedSessions),
      closed_sessions: Number(row.closedSessions),
    };
  }

  /** Each live sector with its queue and the conversations past its SLA seconds (Sector). */
  async sectorSla(session: Session): Promise<SectorSla[]> {
    const rows = await sectorSlaRows(this.ctx.db, session.tenantId);
    return rows.map((r) => ({
      uuid: r.id,
      name: r.name,
      sla_first_response_seconds: r.slaFirst,
      sla_session_seconds: r.slaSession,
      waiting: Number(r.waiting),
      answered: Number(r.answered),
      oldest_waiting_seconds: r.oldest,
      first_response_breaches: Number(r.firstBreaches),
      session_breaches: Number(r.sessionBreaches),
    }));
  }
}
