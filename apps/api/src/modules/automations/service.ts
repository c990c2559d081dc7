import {
  AppError,
  type addAutomationCondition,
  type addAutomationOperation,
  type Automation,
  type BodyOf,
  type createAutomation,
  type ErrorCode,
  type updateAutomation,
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

const invalid = (code: ErrorCode, path: string, message: string) => new AppError(code, message, [{ path, message, code }]);

/** Automations: their trigger, conditions and ordered operations. */
export class AutomationService {
  constructor(private readonly ctx: AppContext) {}

  private async find(session: Session, id: string): Promise<Row> {
    const row = await findAutomation(this.ctx.db, session, id);
    if (!row) throw new AppError('automation_not_found', 'Automation not found');
    return row;
  }

  async list(session: Session): Promise<Automation[]> {
    const rows = await listAutomationRows(this.ctx.db, session);
    return rows.map(present);
  }

  async get(session: Session, id: string): Promise<Automation> {
    return present(await this.find(session, id));
  }

  async create(session: Session, body: BodyOf<typeof createAutomation>): Promise<Automation> {
    const row = await insertAutomation(this.ctx.db, session, {
      name: body.name,
      trigger: body.trigger,
      minutes: body.minutes,
      enabled: body.enabled,
    });
    return present(row);
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateAutomation>): Promise<Automation> {
    const current = await this.find(session, id);
    const row = await updateAutomationFields(this.ctx.db, session.tenantId, current.id, body);
    return present(row);
  }

  /** Soft-deletes the automation; returns its id. */
  async remove(session: Session, id: string): Promise<string> {
    const current = await this.find(session, id);
    await softDeleteAutomation(this.ctx.db, session.tenantId, current.id);
    return current.id;
  }

  async addCondition(session: Session, id: string, body: BodyOf<typeof addAutomationCondition>): Promise<Automation> {
    const current = await this.find(session, id);
    const exists =
      body.field === 'sector'
        ? await isLiveSector(this.ctx.db, session, body.value)
        : await isLiveChannel(this.ctx.db, session, body.value);
    if (!exists)
      throw body.field === 'sector'
        ? invalid('sector_unknown', 'value', 'Sector not found')
        : invalid('channel_unknown', 'value', 'Channel not found');
    await insertAutomationCondition(this.ctx.db, session.tenantId, current.id, {
      field: body.field,
      operator: body.operator,
      value: body.value,
    });
    return present(await this.find(session, current.id));
  }

  async removeCondition(session: Session, id: string, conditionId: string): Promise<Automation> {
    const current = await this.find(session, id);
    const gone = await removeAutomationConditionRow(this.ctx.db, session.tenantId, current.id, conditionId);
    if (!gone) throw new AppError('automation_condition_not_found', 'Condition not found');
    return present(await this.find(session, current.id));
  }

  async addOperation(session: Session, id: string, body: BodyOf<typeof addAutomationOperation>): Promise<Automation> {
    const current = await this.find(session, id);
    const value = body.value?.trim() || null;
    if (body.type === 'send_message' && !value) throw invalid('automation_message_required', 'value', 'Message is required');
    if (body.type === 'transfer_to_sector') {
      const sector = value ? await isLiveSector(this.ctx.db, session, value) : false;
      if (!sector) throw invalid('sector_unknown', 'value', 'Sector not found');
    }
    if (current.operations.some((o) => o.type === 'close'))
      throw invalid('automation_close_last', 'type', 'Nothing can follow closing the conversation');
    await insertAutomationOperation(this.ctx.db, session.tenantId, current.id, {
      type: body.type,
      value: body.type === 'send_message' || body.type === 'transfer_to_sector' ? value : null,
      position: (current.operations.at(-1)?.position ?? 0) + 1,
    });
    return present(await this.find(session, current.id));
  }

  async removeOperation(session: Session, id: string, operationId: string): Promise<Automation> {
    const current = await this.find(session, id);
    const gone = await removeAutomationOperationRow(this.ctx.db, session.tenantId, current.id, operationId);
    if (!gone) throw new AppError('automation_operation_not_found', 'Operation not found');
    return present(await this.find(session, current.id));
  }
}
