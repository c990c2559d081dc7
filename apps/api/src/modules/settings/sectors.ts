import { AppError, createSector, deleteSector, listSectors, TICKET_MESSAGE_REQUIRED, updateSector, type Sector } from '@atende/contract';
import { scoped, type Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { alreadyUsed, softDeleted } from './unique';
import { pageWindow } from '../../paging';

type SectorRow = Prisma.SectorGetPayload<object>;
const present = (r: SectorRow): Sector => ({
  uuid: r.id,
  name: r.name,
  sla_first_response_seconds: r.slaFirstResponseSeconds,
  sla_session_seconds: r.slaSessionSeconds,
  ticket_announce: r.ticketAnnounce,
  ticket_message: r.ticketMessage,
});

/** Sectors (spec 002 §3, §7): anyone signed in lists them; only admins write (spec 002 §6). */
export function sectorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = (session: Session) => scoped(ctx.db, session);
  const live = (session: Session): Prisma.SectorWhereInput => ({ workspaceId: session.workspaceId, deletedAt: null });
  async function find(session: Session, id: string) {
    const row = await db(session).sector.findFirst({ where: { ...live(session), id } });
    if (!row) throw new AppError('not_found', 'Sector not found');
    return row;
  }
  async function nameFree(session: Session, name: string, except?: string) {
    const taken = await db(session).sector.findFirst({
      where: { ...live(session), name: { equals: name, mode: 'insensitive' }, ...(except ? { NOT: { id: except } } : {}) },
    });
    if (taken) throw alreadyUsed('name', 'A sector with this name already exists');
  }

  // Any signed-in user of the workspace may list its sectors (wizard entry points, transfer actions).
  bind(app, listSectors, 'signed_in', async ({ session, query }) => {
    const where: Prisma.SectorWhereInput = {
      ...live(session),
      ...(query.name ? { name: { contains: query.name, mode: 'insensitive' as const } } : {}),
    };
    const [rows, total] = await Promise.all([
      db(session).sector.findMany({
        where,
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        ...pageWindow(query),
      }),
      db(session).sector.count({ where }),
    ]);
    return { data: rows.map(present), pagination: { total, limit: query._limit, offset: query._offset } };
  });
  bind(app, createSector, 'settings.sectors.write', async ({ session, body }) => {
    await nameFree(session, body.name);
    const row = await db(session).sector.create({
      data: {
        tenantId: session.tenantId,
        workspaceId: session.workspaceId,
        name: body.name,
        slaFirstResponseSeconds: body.sla_first_response_seconds ?? null,
        slaSessionSeconds: body.sla_session_seconds ?? null,
        ticketAnnounce: body.ticket_announce ?? false,
        ticketMessage: body.ticket_message?.trim() || null,
      },
    });
    return { data: present(row) };
  });
  bind(app, updateSector, 'settings.sectors.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    if (body.name !== undefined) await nameFree(session, body.name, current.id);
    const ticketMessage = body.ticket_message === undefined ? current.ticketMessage : body.ticket_message?.trim() || null;
    // The same rule as the create form, on the sector as it will be stored.
    if ((body.ticket_announce ?? current.ticketAnnounce) && !ticketMessage) {
      throw new AppError('validation_failed', TICKET_MESSAGE_REQUIRED, [{ path: 'ticket_message', message: TICKET_MESSAGE_REQUIRED }]);
    }
    const row = await db(session).sector.update({
      where: { id: current.id },
      data: {
        name: body.name,
        slaFirstResponseSeconds: body.sla_first_response_seconds,
        slaSessionSeconds: body.sla_session_seconds,
        ticketAnnounce: body.ticket_announce,
        ticketMessage,
      },
    });
    return { data: present(row) };
  });
  bind(app, deleteSector, 'settings.sectors.write', async ({ session, params }) => {
    const sector = await find(session, params.id);
    // A channel's (or a campaign's replies') new conversations would enter a sector nobody can see any more.
    const entry = await db(session).channel.count({ where: { entrySectorId: sector.id, deletedAt: null } });
    if (entry) throw new AppError('conflict', 'Some channels depend on this sector');
    const campaigns = await db(session).campaign.count({ where: { entrySectorId: sector.id, deletedAt: null } });
    if (campaigns) throw new AppError('conflict', 'Some campaigns depend on this sector');
    // A waiting chat (or one an agent serves) would be stranded in a sector nobody can see or pick
    // (issue 16 item 10): they are transferred or finished first.
    const open = await db(session).conversation.count({ where: { sectorId: sector.id, state: { not: 'closed' } } });
    if (open) throw new AppError('conflict', 'Some open conversations are in this sector: transfer or finish them first', undefined, { count: open });
    await ctx.db.$transaction([
      ctx.db.sector.update({ where: { id: sector.id }, data: softDeleted() }),
      // Its agents simply stop belonging to it; their other sectors are untouched.
      ctx.db.userSector.deleteMany({ where: { tenantId: session.tenantId, sectorId: sector.id } }),
    ]);
    return { data: { ok: true as const } };
  });
}
