import { AppError, createSector, deleteSector, listSectors, TICKET_MESSAGE_REQUIRED, updateSector, type Sector } from '@atende/contract';
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
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed } from './unique';
import { pageWindow } from '../../paging';

const present = (r: SectorRow): Sector => ({
  uuid: r.id,
  name: r.name,
  sla_first_response_seconds: r.slaFirstResponseSeconds,
  sla_session_seconds: r.slaSessionSeconds,
  ticket_announce: r.ticketAnnounce,
  ticket_message: r.ticketMessage,
});

/** Sectors: anyone signed in lists them; only admins write. */
export function sectorRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function find(session: Session, id: string) {
    const row = await findSector(ctx.db, session, id);
    if (!row) throw new AppError('sector_not_found', 'Sector not found');
    return row;
  }
  async function nameFree(session: Session, name: string, except?: string) {
    const taken = await sectorNameTaken(ctx.db, session, name, except);
    if (taken) throw alreadyUsed('sector_name_taken', 'name', 'A sector with this name already exists');
  }

  // Any signed-in user of the workspace may list its sectors (wizard entry points, transfer actions).
  bind(app, listSectors, 'signed_in', async ({ session, query }) => {
    const { rows, total } = await listSectorPage(ctx.db, session, { nameContains: query.name }, pageWindow(query));
    return { data: rows.map(present), pagination: { total, limit: query._limit, offset: query._offset } };
  });
  bind(app, createSector, 'settings.sectors.write', async ({ session, body }) => {
    await nameFree(session, body.name);
    const row = await insertSector(ctx.db, session, {
      name: body.name,
      slaFirstResponseSeconds: body.sla_first_response_seconds ?? null,
      slaSessionSeconds: body.sla_session_seconds ?? null,
      ticketAnnounce: body.ticket_announce ?? false,
      ticketMessage: body.ticket_message?.trim() || null,
    });
    return { data: present(row) };
  });
  bind(app, updateSector, 'settings.sectors.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    if (body.name !== undefined) await nameFree(session, body.name, current.id);
    const ticketMessage = body.ticket_message === undefined ? current.ticketMessage : body.ticket_message?.trim() || null;
    // The same rule as the create form, on the sector as it will be stored.
    if ((body.ticket_announce ?? current.ticketAnnounce) && !ticketMessage) {
      throw new AppError('sector_ticket_message_required', TICKET_MESSAGE_REQUIRED, [
        { path: 'ticket_message', message: TICKET_MESSAGE_REQUIRED },
      ]);
    }
    const row = await updateSectorFields(ctx.db, session.tenantId, current.id, {
      name: body.name,
      slaFirstResponseSeconds: body.sla_first_response_seconds,
      slaSessionSeconds: body.sla_session_seconds,
      ticketAnnounce: body.ticket_announce,
      ticketMessage,
    });
    return { data: present(row) };
  });
  bind(app, deleteSector, 'settings.sectors.write', async ({ session, params }) => {
    const sector = await find(session, params.id);
    // A channel's (or a campaign's replies') new conversations would enter a sector nobody can see any more.
    const dependents = await sectorDependents(ctx.db, session.tenantId, sector.id);
    if (dependents.channels) throw new AppError('sector_used_by_channels', 'Some channels depend on this sector');
    if (dependents.campaigns) throw new AppError('sector_used_by_campaigns', 'Some campaigns depend on this sector');
    // A waiting chat (or one an agent serves) would be stranded in a sector nobody can see or pick
    //: they are transferred or finished first.
    const open = dependents.openConversations;
    if (open)
      throw new AppError(
        'sector_has_open_conversations',
        'Some open conversations are in this sector: transfer or finish them first',
        undefined,
        { count: open },
      );
    // Its agents simply stop belonging to it; their other sectors are untouched.
    await softDeleteSector(ctx.db, session.tenantId, sector.id);
    return { data: { ok: true as const } };
  });
}
