import {
  createCannedCategory,
  createCannedResponse,
  createConversationReason,
  createPause,
  createSector,
  deleteCannedCategory,
  deleteCannedResponse,
  deleteConversationReason,
  deletePause,
  deleteSector,
  listCannedCategories,
  listCannedResponses,
  listSectors,
  updateCannedCategory,
  updateCannedResponse,
  updateConversationReason,
  updatePause,
  updateSector,
} from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { CannedService } from './canned';
import { PauseService } from './pauses';
import { ReasonService } from './reasons';
import { SectorService } from './sectors';

/** The answer of a delete. */
const ok = () => ({ data: { ok: true as const } });

/** Sectors: anyone signed in lists them; only admins write. */
function sectorRoutes(app: FastifyInstance, sectors: SectorService): void {
  // Any signed-in user of the workspace may list its sectors (wizard entry points, transfer actions).
  bind(app, listSectors, 'signed_in', async ({ session, query }) => sectors.list(session, query));
  bind(app, createSector, 'settings.sectors.write', async ({ session, body }) => ({ data: await sectors.create(session, body) }));
  bind(app, updateSector, 'settings.sectors.write', async ({ session, params, body }) => ({
    data: await sectors.update(session, params.id, body),
  }));
  bind(app, deleteSector, 'settings.sectors.write', async ({ session, params }) => {
    await sectors.remove(session, params.id);
    return ok();
  });
}

/**
 * Pause reasons. The list (GET /api/v1/pauses) is in the conversations module. The admin area guards
 * the pauses screen only by the settings area, so whoever sees it (supervisor and up) edits it.
 */
function pauseRoutes(app: FastifyInstance, pauses: PauseService): void {
  const access: Access = 'settings.pauses';
  bind(app, createPause, access, async ({ session, body }) => ({ data: await pauses.create(session, body.description) }));
  bind(app, updatePause, access, async ({ session, params, body }) => ({
    data: await pauses.update(session, params.id, body.description),
  }));
  bind(app, deletePause, access, async ({ session, params }) => {
    await pauses.remove(session, params.id);
    return ok();
  });
}

/** Conversation (finish) reasons: admin only. The list is in the conversations module. */
function conversationReasonRoutes(app: FastifyInstance, reasons: ReasonService): void {
  const access: Access = 'settings.conversation_reasons';
  bind(app, createConversationReason, access, async ({ session, body }) => ({ data: await reasons.create(session, body.name) }));
  bind(app, updateConversationReason, access, async ({ session, params, body }) => ({
    data: await reasons.update(session, params.id, body.name),
  }));
  bind(app, deleteConversationReason, access, async ({ session, params }) => {
    await reasons.remove(session, params.id);
    return ok();
  });
}

/**
 * Canned responses and their categories (flag canned_responses). The settings area guards the
 * screen only by the flag, so supervisors and up manage them; agents read them through
 * GET /api/v1/channels/{id}/canned_responses.
 */
function cannedRoutes(app: FastifyInstance, canned: CannedService): void {
  const access: Access = 'settings.canned_responses';
  bind(app, listCannedCategories, access, async ({ session }) => ({ data: await canned.listCategories(session) }));
  bind(app, createCannedCategory, access, async ({ session, body }) => ({ data: await canned.createCategory(session, body) }));
  bind(app, updateCannedCategory, access, async ({ session, params, body }) => ({
    data: await canned.updateCategory(session, params.id, body),
  }));
  bind(app, deleteCannedCategory, access, async ({ session, params }) => {
    await canned.removeCategory(session, params.id);
    return ok();
  });

  bind(app, listCannedResponses, access, async ({ session, query }) => canned.listResponses(session, query));
  bind(app, createCannedResponse, access, async ({ session, body }) => ({ data: await canned.createResponse(session, body) }));
  bind(app, updateCannedResponse, access, async ({ session, params, body }) => ({
    data: await canned.updateResponse(session, params.id, body),
  }));
  bind(app, deleteCannedResponse, access, async ({ session, params }) => {
    await canned.removeResponse(session, params.id);
    return ok();
  });
}

/** The admin settings resources: sectors, pauses, conversation reasons, canned responses. */
export function settingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  sectorRoutes(app, new SectorService(ctx));
  pauseRoutes(app, new PauseService(ctx));
  conversationReasonRoutes(app, new ReasonService(ctx));
  cannedRoutes(app, new CannedService(ctx));
}
