import {
  addAutomationCondition,
  addAutomationOperation,
  AppError,
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomationConditions,
  listAutomationOperations,
  listAutomations,
  removeAutomationCondition,
  removeAutomationOperation,
  updateAutomation,
  type Automation,
  type ErrorCode,
} from '@atende/contract';
import {
  findAutomation,
  insertAutomation,
  insertAutomationCondition,
  insertAutomationOperation,
  isLiveChannel,
  isLiveSector,
  listAutomationRows,
  removeAutomationConditionRow,
  removeAutomationOperationRow,
  softDeleteAutomation,
  updateAutomationFields,
  type AutomationRow as Row,
} from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

const present = (r: Row): Automation => ({
  uuid: r.id,
  name: r.name,
  trigger: r.trigger as Automation['trigger'],
  minutes: r.minutes,
  enabled: r.enabled,
  conditions: r.conditions.map((c) => ({
    uuid: c.id,
    field: c.field as 'sector' | 'channel',
    operator: c.operator as 'equals' | 'not_equals',
    value: c.value,
  })),
  operations: r.operations.map((o) => ({
    uuid: o.id,
    type: o.type as Automation['operations'][number]['type'],
    value: o.value,
    position: o.position,
  })),
  created_at: r.createdAt.toISOString(),
});

/** Automations (/api/v1/actions with /conditions and /operations): supervisors read, admins write. */
export function automationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const find = async (session: Session, id: string): Promise<Row> => {
    const row = await findAutomation(ctx.db, session, id);
    if (!row) throw new AppError('automation_not_found', 'Automation not found');
    return row;
  };
  const invalid = (code: ErrorCode, path: string, message: string) => new AppError(code, message, [{ path, message, code }]);

  bind(app, listAutomations, 'settings.automations.read', async ({ session }) => {
    const rows = await listAutomationRows(ctx.db, session);
    return { data: rows.map(present) };
  });
  bind(app, getAutomation, 'settings.automations.read', async ({ session, params }) => ({ data: present(await find(session, params.id)) }));
  bind(app, createAutomation, 'settings.automations.write', async ({ session, body }) => {
    const row = await insertAutomation(ctx.db, session, {
      name: body.name,
      trigger: body.trigger,
      minutes: body.minutes,
      enabled: body.enabled,
    });
    return { data: present(row) };
  });
  bind(app, updateAutomation, 'settings.automations.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const row = await updateAutomationFields(ctx.db, session.tenantId, current.id, body);
    return { data: present(row) };
  });
  bind(app, deleteAutomation, 'settings.automations.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    await softDeleteAutomation(ctx.db, session.tenantId, current.id);
    return { data: { uuid: current.id } };
  });

  bind(app, listAutomationConditions, 'settings.automations.read', async ({ session, params }) => ({
    data: present(await find(session, params.id)).conditions,
  }));
  bind(app, addAutomationCondition, 'settings.automations.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const exists =
      body.field === 'sector' ? await isLiveSector(ctx.db, session, body.value) : await isLiveChannel(ctx.db, session, body.value);
    if (!exists)
      throw body.field === 'sector'
        ? invalid('sector_unknown', 'value', 'Sector not found')
        : invalid('channel_unknown', 'value', 'Channel not found');
    await insertAutomationCondition(ctx.db, session.tenantId, current.id, {
      field: body.field,
      operator: body.operator,
      value: body.value,
    });
    return { data: present(await find(session, current.id)) };
  });
  bind(app, removeAutomationCondition, 'settings.automations.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    const gone = await removeAutomationConditionRow(ctx.db, session.tenantId, current.id, params.item);
    if (!gone) throw new AppError('automation_condition_not_found', 'Condition not found');
    return { data: present(await find(session, current.id)) };
  });

  bind(app, listAutomationOperations, 'settings.automations.read', async ({ session, params }) => ({
    data: present(await find(session, params.id)).operations,
  }));
  bind(app, addAutomationOperation, 'settings.automations.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const value = body.value?.trim() || null;
    if (body.type === 'send_message' && !value) throw invalid('automation_message_required', 'value', 'Message is required');
    if (body.type === 'transfer_to_sector') {
      const sector = value ? await isLiveSector(ctx.db, session, value) : false;
      if (!sector) throw invalid('sector_unknown', 'value', 'Sector not found');
    }
    if (current.operations.some((o) => o.type === 'close'))
      throw invalid('automation_close_last', 'type', 'Nothing can follow closing the conversation');
    await insertAutomationOperation(ctx.db, session.tenantId, current.id, {
      type: body.type,
      value: body.type === 'send_message' || body.type === 'transfer_to_sector' ? value : null,
      position: (current.operations.at(-1)?.position ?? 0) + 1,
    });
    return { data: present(await find(session, current.id)) };
  });
  bind(app, removeAutomationOperation, 'settings.automations.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    const gone = await removeAutomationOperationRow(ctx.db, session.tenantId, current.id, params.item);
    if (!gone) throw new AppError('automation_operation_not_found', 'Operation not found');
    return { data: present(await find(session, current.id)) };
  });
}
