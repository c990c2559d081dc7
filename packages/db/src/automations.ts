import { Prisma } from '../generated/prisma/client';
import type { WorkspaceScope } from './workspace';

type Client = Pick<Prisma.TransactionClient, 'automation' | 'automationCondition' | 'automationOperation'>;

const include = { conditions: { orderBy: { createdAt: 'asc' } }, operations: { orderBy: { position: 'asc' } } } as const;
/** An automation with its conditions (oldest first) and operations (in order). */
export type AutomationRow = Prisma.AutomationGetPayload<{ include: typeof include }>;

export interface AutomationFields {
  name: string;
  trigger: string;
  minutes: number;
  enabled: boolean;
}

/** The workspace's live automation, or null. */
export function findAutomation(db: Client, ws: WorkspaceScope, id: string): Promise<AutomationRow | null> {
  return db.automation.findFirst({ where: { id, tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null }, include });
}

/** The workspace's live automations by name. */
export function listAutomationRows(db: Client, ws: WorkspaceScope): Promise<AutomationRow[]> {
  return db.automation.findMany({
    where: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, deletedAt: null },
    include,
    orderBy: { name: 'asc' },
  });
}

export function insertAutomation(db: Client, ws: WorkspaceScope, fields: AutomationFields): Promise<AutomationRow> {
  return db.automation.create({ data: { tenantId: ws.tenantId, workspaceId: ws.workspaceId, ...fields }, include });
}

export function updateAutomationFields(
  db: Client,
  tenantId: string,
  id: string,
  changes: Partial<AutomationFields>,
): Promise<AutomationRow> {
  return db.automation.update({ where: { id, tenantId }, data: changes, include });
}

/** Deletes (softly) and disables the automation. */
export async function softDeleteAutomation(db: Client, tenantId: string, id: string): Promise<void> {
  await db.automation.update({ where: { id, tenantId }, data: { deletedAt: new Date(), enabled: false } });
}

export async function insertAutomationCondition(
  db: Client,
  tenantId: string,
  automationId: string,
  c: { field: string; operator: string; value: string },
): Promise<void> {
  await db.automationCondition.create({ data: { tenantId, automationId, field: c.field, operator: c.operator, value: c.value } });
}

/** Removes one condition of the automation; false when it has none with that id. */
export async function removeAutomationConditionRow(db: Client, tenantId: string, automationId: string, id: string): Promise<boolean> {
  return (await db.automationCondition.deleteMany({ where: { id, automationId, tenantId } })).count > 0;
}

export async function insertAutomationOperation(
  db: Client,
  tenantId: string,
  automationId: string,
  o: { type: string; value: string | null; position: number },
): Promise<void> {
  await db.automationOperation.create({ data: { tenantId, automationId, type: o.type, value: o.value, position: o.position } });
}

/** Removes one operation of the automation; false when it has none with that id. */
export async function removeAutomationOperationRow(db: Client, tenantId: string, automationId: string, id: string): Promise<boolean> {
  return (await db.automationOperation.deleteMany({ where: { id, automationId, tenantId } })).count > 0;
}

/** Every enabled automation that has operations, with its conditions and its operations in order. */
export function enabledAutomationsToRun(db: Pick<Prisma.TransactionClient, 'automation'>) {
  return db.automation.findMany({
    where: { enabled: true, deletedAt: null, operations: { some: {} } },
    include: { conditions: true, operations: { orderBy: { position: 'asc' } } },
  });
}
export type AutomationToRun = Awaited<ReturnType<typeof enabledAutomationsToRun>>[number];

/**
 * The conversations an automation's timer has run out on (before `cutoff`), its conditions checked
 * in SQL, with the episode (the instant the timer started) this automation has not yet run for:
 * waiting_too_long counts from joining the queue; contact_inactive from the agent's message that is
 * the conversation's last public one.
 */
export function automationCandidates(
  db: Pick<Prisma.TransactionClient, '$queryRaw'>,
  automation: Pick<AutomationToRun, 'id' | 'tenantId' | 'workspaceId' | 'trigger' | 'conditions'>,
  cutoff: Date,
  limit: number,
): Promise<{ id: string; episode: Date }[]> {
  const conditions = automation.conditions.map((c) => {
    const column = c.field === 'sector' ? Prisma.sql`c."sectorId"` : Prisma.sql`c."channelId"`;
    return c.operator === 'equals'
      ? Prisma.sql`AND ${column} = ${c.value}::uuid`
      : Prisma.sql`AND ${column} IS DISTINCT FROM ${c.value}::uuid`;
  });
  const scope = Prisma.sql`c."tenantId" = ${automation.tenantId}::uuid AND c."workspaceId" = ${automation.workspaceId}::uuid ${conditions.length ? Prisma.join(conditions, ' ') : Prisma.empty}`;
  const fresh = Prisma.sql`NOT EXISTS (SELECT 1 FROM "AutomationRun" r WHERE r."automationId" = ${automation.id}::uuid AND r."conversationId" = c.id AND r.episode = e.episode)`;
  return automation.trigger === 'waiting_too_long'
    ? db.$queryRaw<{ id: string; episode: Date }[]>`
        SELECT c.id, e.episode FROM "Conversation" c CROSS JOIN LATERAL (SELECT c."timeJoin" AS episode) e
        WHERE ${scope} AND c.state = 'waiting'::"ConversationState" AND c."timeJoin" <= ${cutoff} AND ${fresh}
        ORDER BY c."timeJoin" LIMIT ${limit}`
    : db.$queryRaw<{ id: string; episode: Date }[]>`
        SELECT c.id, e.episode FROM "Conversation" c
        CROSS JOIN LATERAL (
          SELECT m."createdAt" AS episode, m.author FROM "Message" m
          WHERE m."conversationId" = c.id AND m.internal = false ORDER BY m."createdAt" DESC LIMIT 1
        ) e
        WHERE ${scope} AND c.state = 'answered'::"ConversationState" AND e.author = 'USER'::"MessageAuthor" AND e.episode <= ${cutoff} AND ${fresh}
        ORDER BY e.episode LIMIT ${limit}`;
}

/** Records one (automation, conversation, episode) run; false when it already ran. */
export async function claimAutomationRun(
  tx: Pick<Prisma.TransactionClient, '$executeRaw'>,
  run: { automationId: string; conversationId: string; episode: Date; tenantId: string; at: Date },
): Promise<boolean> {
  const claimed = await tx.$executeRaw`
    INSERT INTO "AutomationRun" ("automationId", "conversationId", episode, "tenantId", at)
    VALUES (${run.automationId}::uuid, ${run.conversationId}::uuid, ${run.episode}, ${run.tenantId}::uuid, ${run.at})
    ON CONFLICT DO NOTHING`;
  return claimed > 0;
}
