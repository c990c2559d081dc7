import { AppError, queues, TemplateComponentSchema, type QueryOf, type listTemplates, type Template, type TemplateInput, type TemplateSyncJob } from '@atende/contract';
import { announceTemplate, presentTemplate, templateInclude, type TemplateRow } from '@atende/conversations';
import { AUTHENTICATION_EDIT_MESSAGE, channelKind, isTemplateChannel, quickReplyTexts, templateIssues, withoutUnusedExamples } from '@atende/core';
import { enqueue, Prisma, scoped } from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { pageWindow } from '../../paging';

/** Channel types whose templates a provider reviews; on the others a template is usable at once. */
const REVIEWED_TYPES = new Set(['whatsapp_360dialog', '{hash}', 'whatsapp_cloud']);

type ListQuery = QueryOf<typeof listTemplates>;

export class TemplateService {
  constructor(private readonly ctx: AppContext) {}

  private db(session: Session) {
    return scoped(this.ctx.db, session);
  }

  private async channel(session: Session, id: string) {
    const channel = await this.db(session).channel.findFirst({ where: { id, workspaceId: session.workspaceId, deletedAt: null }, select: { id: true, type: true } });
    if (!channel) throw new AppError('not_found', 'Channel not found');
    if (!isTemplateChannel(channel.type)) throw new AppError('unprocessable', 'This channel does not support templates');
    return channel;
  }

  async list(session: Session, query: ListQuery & { channel_uuid?: string }) {
    const where: Prisma.OutboundTemplateWhereInput = {
      deletedAt: null,
      channel: { workspaceId: session.workspaceId, deletedAt: null },
      ...(query.channel_uuid ? { channelId: query.channel_uuid } : {}),
      ...(query.language ? { language: query.language } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(query.status ? { status: { equals: query.status, mode: 'insensitive' as const } } : {}),
      ...(query.name__contains ? { name: { contains: query.name__contains, mode: 'insensitive' as const } } : {}),
    };
    const [rows, total] = await Promise.all([
      this.db(session).outboundTemplate.findMany({
        where, include: templateInclude, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], ...pageWindow(query),
      }),
      this.db(session).outboundTemplate.count({ where }),
    ]);
    return { data: rows.map(presentTemplate), pagination: { total, limit: query._limit, offset: query._offset } };
  }

  /** Spec 002 §5 on the server: the form's rules, again, with the same messages. */
  private validated(input: TemplateInput, channelType: string, mode: 'create' | 'edit'): TemplateInput {
    const cleaned = withoutUnusedExamples(input);
    const issues = templateIssues(cleaned, { channelType, mode });
    if (issues.length) throw new AppError('validation_failed', issues[0]!.message, issues);
    return cleaned;
  }

  /** Commits the change with its provider job (outbox) and tells open lists. */
  private async save(session: Session, write: (tx: Prisma.TransactionClient) => Promise<TemplateRow>, action: TemplateSyncJob['action'] | null): Promise<Template> {
    const row = await this.ctx.db.$transaction(async (tx) => {
      const saved = await write(tx);
      if (action) {
        const payload: TemplateSyncJob = { tenant_uuid: session.tenantId, template_uuid: saved.id, action };
        await enqueue(tx, queues.templateSync.name, payload);
      }
      return saved;
    }).catch((error: unknown) => {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new AppError('conflict', 'There is already a template with this name and language on this channel', [{ path: 'name', message: 'There is already a template with this name and language on this channel' }]);
      }
      throw error;
    });
    await announceTemplate(this.ctx, row).catch((err: unknown) => this.ctx.log.error({ err }, 'update-template not announced'));
    return presentTemplate(row);
  }

  async create(session: Session, channelId: string, input: TemplateInput): Promise<Template> {
    const channel = await this.channel(session, channelId);
    const body = this.validated(input, channel.type, 'create');
    const reviewed = REVIEWED_TYPES.has(channelKind(channel.type));
    return this.save(
      session,
      (tx) =>
        tx.outboundTemplate.create({
          data: {
            tenantId: session.tenantId, channelId: channel.id, name: body.name, language: body.language, category: body.category,
            components: body.components as Prisma.InputJsonValue, status: reviewed ? 'PENDING' : 'APPROVED', syncPending: reviewed ? 'submit' : null,
          },
          include: templateInclude,
        }),
      reviewed ? 'submit' : null,
    );
  }

  /**
   * Issue 14 item 7: the campaigns using a template (not deleted), named in a 409 unless the caller
   * confirmed; they come back so the caller can flag them in its transaction.
   */
  private async campaignsUsing(tx: Prisma.TransactionClient, session: Session, templateId: string, confirmed: boolean, change: 'buttons' | 'delete'): Promise<string[]> {
    const campaigns = await tx.campaign.findMany({ where: { templateId, tenantId: session.tenantId, deletedAt: null }, select: { id: true, name: true }, orderBy: { createdAt: 'asc' } });
    if (campaigns.length && !confirmed) {
      const names = campaigns.map((c) => c.name).join(', ');
      const message = change === 'delete' ? `Campaigns use this template: ${names}` : `Campaigns use this template's buttons: ${names}`;
      throw new AppError('template_in_use', message, undefined, { campaigns: names, count: campaigns.length, change });
    }
    return campaigns.map((c) => c.id);
  }

  /** PUT names the template by name and language; channel, name and category are locked (spec 002 §4). */
  async update(session: Session, channelId: string, input: TemplateInput, confirmed = false): Promise<Template> {
    const channel = await this.channel(session, channelId);
    const current = await this.db(session).outboundTemplate.findFirst({ where: { channelId: channel.id, name: input.name, language: input.language, deletedAt: null } });
    if (!current) throw new AppError('not_found', 'Template not found');
    if (current.category === 'AUTHENTICATION') throw new AppError('unprocessable', AUTHENTICATION_EDIT_MESSAGE, [{ path: 'category', message: AUTHENTICATION_EDIT_MESSAGE }]);
    if (input.category !== current.category) throw new AppError('validation_failed', 'The category of a template cannot be changed', [{ path: 'category', message: 'The category of a template cannot be changed' }]);
    if (current.syncPending === 'delete') throw new AppError('conflict', 'This template is being deleted');
    const body = this.validated(input, channel.type, 'edit');
    const reviewed = REVIEWED_TYPES.has(channelKind(channel.type));
    return this.save(
      session,
      async (tx) => {
        // Renamed, added or removed quick replies: the campaigns' reply actions no longer match (issue 14 item 7).
        const before = TemplateComponentSchema.array().safeParse(current.components);
        const buttonsChanged = !before.success || quickReplyTexts(before.data).join('\u0000') !== quickReplyTexts(body.components).join('\u0000');
        if (buttonsChanged) {
          const affected = await this.campaignsUsing(tx, session, current.id, confirmed, 'buttons');
          if (affected.length) await tx.campaign.updateMany({ where: { id: { in: affected } }, data: { actionsOutdated: true } });
        }
        return tx.outboundTemplate.update({
          where: { id: current.id },
          data: { components: body.components as Prisma.InputJsonValue, rejectedReason: null, ...(reviewed ? { status: 'PENDING', syncPending: 'edit', syncError: null } : {}) },
          include: templateInclude,
        });
      },
      reviewed ? 'edit' : null,
    );
  }

  /** Removed from lists at once; the provider is told by the worker (PENDING_DELETION meanwhile is not shown). */
  async remove(session: Session, id: string, confirmed = false): Promise<void> {
    const current = await this.db(session).outboundTemplate.findFirst({ where: { id, deletedAt: null, channel: { workspaceId: session.workspaceId } }, include: templateInclude });
    if (!current) throw new AppError('not_found', 'Template not found');
    const atProvider = REVIEWED_TYPES.has(channelKind(current.channel.type)) && (current.externalId !== null || current.syncPending !== 'submit');
    await this.save(
      session,
      async (tx) => {
        await this.campaignsUsing(tx, session, current.id, confirmed, 'delete');
        return tx.outboundTemplate.update({ where: { id: current.id }, data: { deletedAt: new Date(), status: 'DELETED', syncPending: atProvider ? 'delete' : null }, include: templateInclude });
      },
      atProvider ? 'delete' : null,
    );
  }
}
