import {
  AppError,
  TICKET_MESSAGE_REQUIRED,
  type BodyOf,
  type createSector,
  type listSectors,
  type QueryOf,
  type Sector,
  type updateSector,
} from '@atende/contract';
import {
  findSector,
  insertSector,
  listSectorPage,
  sectorDependents,
  sectorNameTaken,
  softDeleteSector,
  updateSectorFields,
  type SectorRow,
} from '@atende/db';
import type { AppContext } from '../../context';
import { pageWindow } from '../../paging';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';

const present = (r: SectorRow): Sector => ({
  uuid: r.id,
  name: r.name,
  sla_first_response_seconds: r.slaFirstResponseSeconds,
  sla_session_seconds: r.slaSessionSeconds,
  ticket_announce: r.ticketAnnounce,
  ticket_message: r.ticketMessage,
});

/** Sectors: a name no other live sector has, a ticket message when tickets are announced, and no dependents when deleted. */
export class SectorService {
  constructor(private readonly ctx: AppContext) {}

  private async find(session: Session, id: string): Promise<SectorRow> {
    const row = await findSector(this.ctx.db, session, id);
    if (!row) throw new AppError('sector_not_found', 'Sector not found');
    return row;
  }

  private async nameFree(session: Session, name: string, except?: string): Promise<void> {
    const taken = await sectorNameTaken(this.ctx.db, session, name, except);
    if (taken) throw alreadyUsed('sector_name_taken', 'name', 'A sector with this name already exists');
  }

  async list(
    session: Session,
    query: QueryOf<typeof listSectors>,
  ): Promise<{ data: Sector[]; pagination: { total: number; limit: number; offset: number } }> {
    const { rows, total } = await listSectorPage(this.ctx.db, session, { nameContains: query.name }, pageWindow(query));
    return { data: rows.map(present), pagination: { total, limit: query._limit, offset: query._offset } };
  }

  async create(session: Session, body: BodyOf<typeof createSector>): Promise<Sector> {
    await this.nameFree(session, body.name);
    const row = await insertSector(this.ctx.db, session, {
      name: body.name,
      slaFirstResponseSeconds: body.sla_first_response_seconds ?? null,
      slaSessionSeconds: body.sla_session_seconds ?? null,
      ticketAnnounce: body.ticket_announce ?? false,
      ticketMessage: body.ticket_message?.trim() || null,
    });
    return present(row);
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateSector>): Promise<Sector> {
    const current = await this.find(session, id);
    if (body.name !== undefined) await this.nameFree(session, body.name, current.id);
    const ticketMessage = body.ticket_message === undefined ? current.ticketMessage : body.ticket_message?.trim() || null;
    // The same rule as the create form, on the sector as it will be stored.
    if ((body.ticket_announce ?? current.ticketAnnounce) && !ticketMessage) {
      throw new AppError('sector_ticket_message_required', TICKET_MESSAGE_REQUIRED, [
        { path: 'ticket_message', message: TICKET_MESSAGE_REQUIRED },
      ]);
    }
    const row = await updateSectorFields(this.ctx.db, session.tenantId, current.id, {
      name: body.name,
      slaFirstResponseSeconds: body.sla_first_response_seconds,
      slaSessionSeconds: body.sla_session_seconds,
      ticketAnnounce: body.ticket_announce,
      ticketMessage,
    });
    return present(row);
  }

  async remove(session: Session, id: string): Promise<void> {
    const sector = await this.find(session, id);
    // A channel's (or a campaign's replies') new conversations would enter a sector nobody can see any more.
    const dependents = await sectorDependents(this.ctx.db, session.tenantId, sector.id);
    if (dependents.channels) throw new AppError('sector_used_by_channels', 'Some channels depend on this sector');
    if (dependents.campaigns) throw new AppError('sector_used_by_campaigns', 'Some campaigns depend on this sector');
    // A waiting chat (or one an agent serves) would be stranded in a sector nobody can see or pick:
    // they are transferred or finished first.
    const open = dependents.openConversations;
    if (open)
      throw new AppError(
        'sector_has_open_conversations',
        'Some open conversations are in this sector: transfer or finish them first',
        undefined,
        { count: open },
      );
    // Its agents simply stop belonging to it; their other sectors are untouched.
    await softDeleteSector(this.ctx.db, session.tenantId, sector.id);
  }
}
