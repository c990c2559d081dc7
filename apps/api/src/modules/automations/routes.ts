import {
  addAutomationCondition, addAutomationOperation, AppError, createAutomation, deleteAutomation, getAutomation, listAutomationConditions, listAutomationOperations,
  listAutomations, removeAutomationCondition, removeAutomationOperation, updateAutomation, type Automation,
} from '@atende/contract';
import { scoped, type Prisma } from '@atende/db';
import type { FastifyInstance } from 'fastify';
import { bind } from '../../bind';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';

const include = { conditions: { orderBy: { createdAt: 'asc' } }, operations: { orderBy: { position: 'asc' } } } as const;
type Row = Prisma.AutomationGetPayload<{ include: typeof include }>;

const present = (r: Row): Automation => ({
  uuid: r.id,
  name: r.name,
  trigger: r.trigger as Automation['trigger'],
  minutes: r.minutes,
  enabled: r.enabled,
  conditions: r.conditions.map((c) => ({ uuid: c.id, field: c.field as 'sector' | 'channel', operator: c.operator as 'equals' | 'not_equals', value: c.value })),
  operations: r.operations.map((o) => ({ uuid: o.id, type: o.type as Automation['operations'][number]['type'], value: o.value, position: o.position })),
  created_at: r.createdAt.toISOString(),
});

/** Automations (spec 002 §3, §7 /api/v1/actions with /conditions and /operations): supervisors read, admins write. */
export function automationRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = (session: Session) => scoped(ctx.db, session);
  const find = async (session: Session, id: string): Promise<Row> => {
    const row = await db(session).automation.findFirst({ where: { id, workspaceId: session.workspaceId, deletedAt: null }, include });
    if (!row) throw new AppError('not_found', 'Automation not found');
    return row;
  };
  const invalid = (path: string, message: string) => new AppError('validation_failed', message, [{ path, message }]);

  bind(app, listAutomations, 'settings.automations.read', async ({ session }) => {
    const rows = await db(session).automation.findMany({ where: { workspaceId: session.workspaceId, deletedAt: null }, include, orderBy: { name: 'asc' } });
    return { data: rows.map(present) };
  });
  bind(app, getAutomation, 'settings.automations.read', async ({ session, params }) => ({ data: present(await find(session, params.id)) }));
  bind(app, createAutomation, 'settings.automations.write', async ({ session, body }) => {
    const row = await db(session).automation.create({
      data: { tenantId: session.tenantId, workspaceId: session.workspaceId, name: body.name, trigger: body.trigger, minutes: body.minutes, enabled: body.enabled },
      include,
    });
    return { data: present(row) };
  });
  bind(app, updateAutomation, 'settings.automations.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const row = await db(session).automation.update({ where: { id: current.id }, data: body, include });
    return { data: present(row) };
  });
  bind(app, deleteAutomation, 'settings.automations.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    await db(session).automation.update({ where: { id: current.id }, data: { deletedAt: new Date(), enabled: false } });
    return { data: { uuid: current.id } };
  });

  bind(app, listAutomationConditions, 'settings.automations.read', async ({ session, params }) => ({ data: present(await find(session, params.id)).conditions }));
  bind(app, addAutomationCondition, 'settings.automations.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const exists =
      body.field === 'sector'
        ? await db(session).sector.count({ where: { id: body.value, workspaceId: session.workspaceId, deletedAt: null } })
        : await db(session).channel.count({ where: { id: body.value, workspaceId: session.workspaceId, deletedAt: null } });
    if (!exists) throw invalid('value', body.field === 'sector' ? 'Sector not found' : 'Channel not found');
    await db(session).automationCondition.create({ data: { tenantId: session.tenantId, automationId: current.id, field: body.field, operator: body.operator, value: body.value } });
    return { data: present(await find(session, current.id)) };
  });
  bind(app, removeAutomationCondition, 'settings.automations.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    const gone = await db(session).automationCondition.deleteMany({ where: { id: params.item, automationId: current.id } });
    if (gone.count === 0) throw new AppError('not_found', 'Condition not found');
    return { data: present(await find(session, current.id)) };
  });

  bind(app, listAutomationOperations, 'settings.automations.read', async ({ session, params }) => ({ data: present(await find(session, params.id)).operations }));
  bind(app, addAutomationOperation, 'settings.automations.write', async ({ session, params, body }) => {
    const current = await find(session, params.id);
    const value = body.value?.trim() || null;
    if (body.type === 'send_message' && !value) throw invalid('value', 'Message is required');
    if (body.type === 'transfer_to_sector') {
      const sector = value ? await db(session).sector.count({ where: { id: value, workspaceId: session.workspaceId, deletedAt: null } }) : 0;
      if (!sector) throw invalid('value', 'Sector not found');
    }
    if (current.operations.some((o) => o.type === 'close')) throw invalid('type', 'Nothing can follow closing the conversation');
    await db(session).automationOperation.create({
      data: {
        tenantId: session.tenantId, automationId: current.id, type: body.type, value: body.type === 'send_message' || body.type === 'transfer_to_sector' ? value : null,
        position: (current.operations.at(-1)?.position ?? 0) + 1,
      },
    });
    return { data: present(await find(session, current.id)) };
  });
  bind(app, removeAutomationOperation, 'settings.automations.write', async ({ session, params }) => {
    const current = await find(session, params.id);
    const gone = await db(session).automationOperation.deleteMany({ where: { id: params.item, automationId: current.id } });
    if (gone.count === 0) throw new AppError('not_found', 'Operation not found');
    return { data: present(await find(session, current.id)) };
  });
}
