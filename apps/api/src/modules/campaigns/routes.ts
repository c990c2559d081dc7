import {
  addContactToDnd,
  createCampaign,
  createDndList,
  deleteCampaign,
  deleteDndList,
  updateDndList,
  getCampaign,
  listCampaigns,
  listDndContacts,
  listDndLists,
  removeDndContact,
  listCampaignEntrypoints,
  setCampaignDesiredState,
  updateCampaign,
} from '@atende/contract';
import { storageFromEnv, type Storage } from '@atende/storage';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { CampaignService } from './service';
import { DndListService } from './dnd-lists';
import { reportRoutes } from './reports';
import { subscriberRoutes } from './subscribers';
import { campaignToolRoutes } from './tools';

/** Campaigns, subscribers and DND lists: campaign_manager with outbound_campaign on. */
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
  bind(app, setCampaignDesiredState, access, async ({ session, params, body }) => ({
    data: await campaigns.setDesiredState(session, params.id, body.desired_state),
  }));
  await subscriberRoutes(app, ctx, campaigns, storage, access);
  reportRoutes(app, ctx, access);
  campaignToolRoutes(app, ctx, campaigns, access);

  // --- do-not-disturb lists ---
  const dnd = new DndListService(ctx);
  bind(app, listDndLists, access, async ({ session, query }) => dnd.list(session, query));
  bind(app, createDndList, access, async ({ session, body }) => ({ data: await dnd.create(session, body.name) }));
  bind(app, updateDndList, access, async ({ session, params, body }) => ({ data: await dnd.update(session, params.id, body) }));
  bind(app, deleteDndList, access, async ({ session, params }) => {
    await dnd.remove(session, params.id);
    return { data: { ok: true as const } };
  });
  bind(app, listDndContacts, access, async ({ session, params, query }) => dnd.contacts(session, params.id, query));
  bind(app, removeDndContact, access, async ({ session, params }) => {
    await dnd.removeContact(session, params.id, params.contact);
    return { data: { ok: true as const } };
  });
  bind(app, addContactToDnd, access, async ({ session, params, body }) => ({ data: await dnd.addContact(session, params.id, body) }));
}
