import {
  addContactToDnd, AppError, createCampaign, createDndList, deleteCampaign, deleteDndList, updateDndList, getCampaign, listCampaigns, listDndContacts, listDndLists, removeDndContact,
  listCampaignEntrypoints, setCampaignDesiredState, updateCampaign,
} from '@atende/contract';
import type { Prisma } from '@atende/db';
import { storageFromEnv, type Storage } from '@atende/storage';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { CampaignService } from './service';
import { reportRoutes } from './reports';
import { subscriberRoutes } from './subscribers';
import { campaignToolRoutes } from './tools';
import { pageWindow } from '../../paging';

/** Campaigns, subscribers and DND lists (spec 001 §7): campaign_manager with outbound_campaign on. */
export async function campaignRoutes(app: FastifyInstance, ctx: AppContext, storage: Storage = storageFromEnv(ctx.env)): Promise<void> {
  const access: Access = 'campaigns';
  const campaigns = new CampaignService(ctx);
  bind(app, listCampaigns, access, async ({ session, query }) => campaigns.list(session, query));
  bind(app, listCampaignEntrypoints, access, async ({ session }) => ({ data: await campaigns.entrypoints(session) }));
  bind(app, getCampaign, access, async ({ session, params }) => ({ data: await campaigns.get(session, params.id) }));
  bind(app, createCampaign, access, async ({ session, body }) => ({ data: await campaigns.create(session, body) }));
  bind(app, updateCampaign, access, async ({ session, params, body }) => ({ data: await campaigns.update(session, params.id, body) }));
  bind(app, deleteCampaign, access, async ({ session, params }) => {
    await campaigns.remove(session, params.id);
    return { data: { ok: true as const } };
  });
  bind(app, setCampaignDesiredState, access, async ({ session, params, body }) => ({ data: await campaigns.setDesiredState(session, params.id, body.desired_state) }));
  await subscriberRoutes(app, ctx, campaigns, storage, access);
  reportRoutes(app, ctx, access);
  campaignToolRoutes(app, ctx, campaigns, access);

  // --- do-not-disturb lists ---
  const listOf = async (tenantId: string, id: string) => {
    const list = await ctx.db.dndList.findFirst({ where: { id, tenantId, deletedAt: null } });
    if (!list) throw new AppError('not_found', 'Do not disturb list not found');
    return list;
  };
  bind(app, listDndLists, access, async ({ session, query }) => {
    const where: Prisma.DndListWhereInput = { tenantId: session.tenantId, deletedAt: null, ...(query.name ? { name: { contains: query.name, mode: 'insensitive' as const } } : {}) };
    const [rows, total] = await Promise.all([
      ctx.db.dndList.findMany({ where, orderBy: [{ name: 'asc' }, { id: 'asc' }], include: { _count: { select: { contacts: true } } }, ...pageWindow(query) }),
      ctx.db.dndList.count({ where }),
    ]);
    return { data: rows.map((r) => ({ uuid: r.id, name: r.name, contact_count: r._count.contacts, default: r.isDefault })), pagination: { total, limit: query._limit, offset: query._offset } };
  });
  bind(app, createDndList, access, async ({ session, body }) => {
    const row = await ctx.db.dndList.create({ data: { tenantId: session.tenantId, name: body.name } });
    return { data: { uuid: row.id, name: row.name, contact_count: 0, default: row.isDefault } };
  });
  bind(app, updateDndList, access, async ({ session, params, body }) => {
    const list = await listOf(session.tenantId, params.id);
    const row = await ctx.db.dndList.update({ where: { id: list.id }, data: { name: body.name, isDefault: body.default }, include: { _count: { select: { contacts: true } } } });
    return { data: { uuid: row.id, name: row.name, contact_count: row._count.contacts, default: row.isDefault } };
  });
  bind(app, deleteDndList, access, async ({ session, params }) => {
    const list = await listOf(session.tenantId, params.id);
    const running = await ctx.db.campaignDndList.count({ where: { dndListId: list.id, campaign: { deletedAt: null, OR: [{ state: 'running' }, { desiredState: 'running' }] } } });
    if (running) throw new AppError('conflict', 'A running campaign uses this list; stop it first');
    await ctx.db.$transaction([
      ctx.db.campaignDndList.deleteMany({ where: { dndListId: list.id } }),
      ctx.db.dndList.update({ where: { id: list.id }, data: { deletedAt: new Date() } }),
    ]);
    return { data: { ok: true as const } };
  });
  bind(app, listDndContacts, access, async ({ session, params, query }) => {
    const list = await listOf(session.tenantId, params.id);
    const digits = query.phone_number?.replace(/\D/g, '');
    const where: Prisma.DndContactWhereInput = {
      dndListId: list.id,
      contact: {
        deletedAt: null,
        ...(query.name ? { name: { contains: query.name, mode: 'insensitive' as const } } : {}),
        ...(digits ? { phoneNumber: { contains: digits } } : {}),
      },
    };
    const [rows, total] = await Promise.all([
      ctx.db.dndContact.findMany({ where, include: { contact: true }, orderBy: [{ createdAt: 'desc' }, { contactId: 'asc' }], ...pageWindow(query) }),
      ctx.db.dndContact.count({ where }),
    ]);
    return { data: rows.map((r) => ({ uuid: r.contact.id, name: r.contact.name, phone_number: r.contact.phoneNumber })), pagination: { total, limit: query._limit, offset: query._offset } };
  });
  bind(app, removeDndContact, access, async ({ session, params }) => {
    const list = await listOf(session.tenantId, params.id);
    const removed = await ctx.db.dndContact.deleteMany({ where: { dndListId: list.id, contactId: params.contact } });
    if (removed.count === 0) throw new AppError('not_found', 'The contact is not on this list');
    return { data: { ok: true as const } };
  });
  bind(app, addContactToDnd, access, async ({ session, params, body }) => {
    const contact = await ctx.db.contact.findFirst({ where: { id: params.id, tenantId: session.tenantId, deletedAt: null } });
    if (!contact) throw new AppError('not_found', 'Contact not found');
    const lists = await ctx.db.dndList.findMany({ where: { id: { in: body.dnd_list }, tenantId: session.tenantId, deletedAt: null } });
    if (lists.length !== new Set(body.dnd_list).size) throw new AppError('validation_failed', 'Do not disturb list not found', [{ path: 'dnd_list', message: 'Do not disturb list not found' }]);
    await ctx.db.dndContact.createMany({ data: lists.map((l) => ({ dndListId: l.id, contactId: contact.id, tenantId: session.tenantId })), skipDuplicates: true });
    const all = await ctx.db.dndContact.findMany({ where: { contactId: contact.id, list: { deletedAt: null } }, include: { list: true }, orderBy: { createdAt: 'asc' } });
    return { data: { uuid: contact.id, name: contact.name, dnd_list: all.map((d) => ({ uuid: d.list.id, name: d.list.name })) } };
  });
}
