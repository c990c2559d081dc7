import {
  addAutomationCondition,
  addAutomationOperation,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomationConditions,
  listAutomationOperations,
  listAutomations,
  removeAutomationCondition,
  removeAutomationOperation,
  updateAutomation,
} from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import { AutomationService } from './service';

/** Automations (/api/v1/actions with /conditions and /operations): supervisors read, admins write. */
export function automationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const automations = new AutomationService(ctx);

  bind(app, listAutomations, 'settings.automations.read', async ({ session }) => ({ data: await automations.list(session) }));
  bind(app, getAutomation, 'settings.automations.read', async ({ session, params }) => ({
    data: await automations.get(session, params.id),
  }));
  bind(app, createAutomation, 'settings.automations.write', async ({ session, body }) => ({
    data: await automations.create(session, body),
  }));
  bind(app, updateAutomation, 'settings.automations.write', async ({ session, params, body }) => ({
    data: await automations.update(session, params.id, body),
  }));
  bind(app, deleteAutomation, 'settings.automations.write', async ({ session, params }) => ({
    data: { uuid: await automations.remove(session, params.id) },
  }));

  bind(app, listAutomationConditions, 'settings.automations.read', async ({ session, params }) => ({
    data: (await automations.get(session, params.id)).conditions,
  }));
  bind(app, addAutomationCondition, 'settings.automations.write', async ({ session, params, body }) => ({
    data: await automations.addCondition(session, params.id, body),
  }));
  bind(app, removeAutomationCondition, 'settings.automations.write', async ({ session, params }) => ({
    data: await automations.removeCondition(session, params.id, params.item),
  }));

  bind(app, listAutomationOperations, 'settings.automations.read', async ({ session, params }) => ({
    data: (await automations.get(session, params.id)).operations,
  }));
  bind(app, addAutomationOperation, 'settings.automations.write', async ({ session, params, body }) => ({
    data: await automations.addOperation(session, params.id, body),
  }));
  bind(app, removeAutomationOperation, 'settings.automations.write', async ({ session, params }) => ({
    data: await automations.removeOperation(session, params.id, params.item),
  }));
}
