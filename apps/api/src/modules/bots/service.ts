import {
  AppError,
  refuseFieldIssues,
  BotNodeSchema,
  type BodyOf,
  type Bot,
  type BotHistoryRow,
  type botHistory,
  type createBot,
  type QueryOf,
  type updateBot,
} from '@atende/contract';
import { botFlowIssues, type BotNode } from '@atende/core';
import {
  botNameTaken,
  countChannelsEnteringBot,
  countLiveSectors,
  findBot,
  insertBot,
  listBotRows,
  softDeleteBot,
  updateBotFields,
  type BotRow as Row,
} from '@atende/db';
import type { AppContext } from '../../context';
import { reportRange } from '../reports/export';
import type { Session } from '../session/session';
import { botHistoryPage } from './history';

const present = (r: Row): Bot => ({
  uuid: r.id,
  name: r.name,
  nodes: BotNodeSchema.array().catch([]).parse(r.nodes),
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

/** Bot flows: their rules ('There is already a bot with this name', known sectors), and the history of passes through them. */
export class BotService {
  constructor(private readonly ctx: AppContext) {}

  private async find(session: Session, id: string): Promise<Row> {
    const row = await findBot(this.ctx.db, session, id);
    if (!row) throw new AppError('bot_not_found', 'Bot not found');
    return row;
  }

  /** The flow's rules, a name no other live bot has, and every sector a node transfers to live here. */
  private async check(session: Session, name: string, nodes: BotNode[], self: string | null): Promise<void> {
    const issues = botFlowIssues(name, nodes);
    refuseFieldIssues(issues);
    const taken = await botNameTaken(this.ctx.db, session, name.trim(), self);
    if (taken)
      throw new AppError('bot_name_taken', 'There is already a bot with this name', [
        { path: 'name', message: 'There is already a bot with this name' },
      ]);
    const sectors = [...new Set(nodes.map((n) => n.sector_uuid).filter((v): v is string => !!v))];
    if (sectors.length && (await countLiveSectors(this.ctx.db, session, sectors)) !== sectors.length) {
      throw new AppError('sector_unknown', 'Sector not found', [{ path: 'nodes', message: 'Sector not found' }]);
    }
  }

  async list(session: Session): Promise<Bot[]> {
    return (await listBotRows(this.ctx.db, session)).map(present);
  }

  async get(session: Session, id: string): Promise<Bot> {
    return present(await this.find(session, id));
  }

  async create(session: Session, body: BodyOf<typeof createBot>): Promise<Bot> {
    await this.check(session, body.name, body.nodes, null);
    const row = await insertBot(this.ctx.db, session, { name: body.name.trim(), nodes: body.nodes });
    return present(row);
  }

  async update(session: Session, id: string, body: BodyOf<typeof updateBot>): Promise<Bot> {
    const current = await this.find(session, id);
    const name = body.name ?? current.name;
    const nodes = body.nodes ?? present(current).nodes;
    await this.check(session, name, nodes, current.id);
    const row = await updateBotFields(this.ctx.db, session.tenantId, current.id, { name: name.trim(), nodes });
    return present(row);
  }

  /** Soft-deletes a bot no channel greets its conversations with; returns its id. */
  async remove(session: Session, id: string): Promise<string> {
    const current = await this.find(session, id);
    // A bot greeting a channel's conversations stays until the channel changes.
    const bound = await countChannelsEnteringBot(this.ctx.db, session.tenantId, current.id);
    if (bound) throw new AppError('bot_in_use', 'Some channels depend on this bot');
    await softDeleteBot(this.ctx.db, session.tenantId, current.id);
    return current.id;
  }

  /**
   * Each pass of a conversation through a bot flow or an automated menu. A pass ends with the flow's
   * last history entry (into a queue, or closed), which names the flow or menu; a conversation still in
   * one is listed from the conversation itself.
   */
  async history(
    session: Session,
    query: QueryOf<typeof botHistory>,
  ): Promise<{ data: BotHistoryRow[]; pagination: { total: number; limit: number; offset: number } }> {
    const { from, to } = reportRange(query);
    return botHistoryPage(this.ctx.db, session, { from, to }, query.bot_uuid, query);
  }
}
