import {
  AppError,
  refuseFieldIssues,
  HASH_CHANNEL_KIND,
  queues,
  TemplateComponentSchema,
  type ChannelType,
  type QueryOf,
  type listTemplates,
  type Template,
  type TemplateInput,
  type TemplateSyncJob,
} from '@atende/contract';
import { announceTemplate, presentTemplate, type TemplateRow } from '@atende/conversations';
import {
  AUTHENTICATION_EDIT_MESSAGE,
  channelKind,
  isTemplateChannel,
  quickReplyTexts,
  templateIssues,
  withoutUnusedExamples,
} from '@atende/core';
import {
  enqueue,
  findLiveTemplateByName,
  findLiveWorkspaceTemplate,
  insertTemplate,
  listWorkspaceTemplates,
  liveCampaignsUsingTemplate,
  liveWorkspaceChannel,
  markCampaignActionsOutdated,
  markTemplateDeleted,
  Prisma,
  updateTemplateComponents,
  withTransaction,
} from '@atende/db';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { pageWindow } from '../../paging';

/** Channel types whose templates a provider reviews; on the others a template is usable at once. */
const REVIEWED_TYPES = new Set<string>(['whatsapp_360dialog', HASH_CHANNEL_KIND, 'whatsapp_cloud'] satisfies ChannelType[]);

type ListQuery = QueryOf<typeof listTemplates>;

export class TemplateService {
  constructor(private readonly ctx: AppContext) {}

  private async channel(session: Session, id: string) {
    const channel = await liveWorkspaceChannel(this.ctx.db, session, id);
    if (!channel) throw new AppError('channel_not_found', 'Channel not found');
    if (!isTemplateChannel(channel.type)) throw new AppError('channel_no_templates_support', 'This channel does not support templates');
    return channel;
  }

  async list(session: Session, query: ListQuery & { channel_uuid?: string }) {
    const filter = {
      channelId: query.channel_uuid,
      language: query.language,
      category: query.category,
      status: query.status,
      nameContains: query.name__contains,
    };
    const { rows, total } = await listWorkspaceTemplates(this.ctx.db, session, filter, pageWindow(query));
    return { data: rows.map(presentTemplate), pagination: { total, limit: query._limit, offset: query._offset } };
  }

  /** On the server: the form's rules, again, with the same messages. */
  private validated(input: TemplateInput, channelType: string, mode: 'create' | 'edit'): TemplateInput {
    const cleaned = withoutUnusedExamples(input);
    const issues = templateIssues(cleaned, { channelType, mode });
    refuseFieldIssues(issues);
    return cleaned;
  }

  /** Commits the change with its provider job (outbox) and tells open lists. */
  private async save(
    session: Session,
    write: (tx: Prisma.TransactionClient) => Promise<TemplateRow>,
    action: TemplateSyncJob['action'] | null,
  ): Promise<Template> {
    const row = await withTransaction(this.ctx.db, async (tx) => {
      const saved = await write(tx);
      if (action) {
        const payload: TemplateSyncJob = { tenant_uuid: session.tenantId, template_uuid: saved.id, action };
        await enqueue(tx, queues.templateSync.name, payload);
      }
      return saved;
    }).catch((error: unknown) => {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
        throw new AppError('template_name_taken', 'There is already a template with this name and language on this channel', [
          { path: 'name', message: 'There is already a template with this name and language on this channel' },
        ]);
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
        insertTemplate(tx, {
          tenantId: session.tenantId,
          channelId: channel.id,
          name: body.name,
          language: body.language,
          category: body.category,
          components: body.components as Prisma.InputJsonValue,
          status: reviewed ? 'PENDING' : 'APPROVED',
          syncPending: reviewed ? 'submit' : null,
        }),
      reviewed ? 'submit' : null,
    );
  }

  /**
   * The campaigns using a template (not deleted), named in a 409 unless the caller
   * confirmed; they come back so the caller can flag them in its transaction.
   */
  private async campaignsUsing(
    tx: Prisma.TransactionClient,
    session: Session,
    templateId: string,
    confirmed: boolean,
    change: 'buttons' | 'delete',
  ): Promise<string[]> {
    const campaigns = await liveCampaignsUsingTemplate(tx, session.tenantId, templateId);
    if (campaigns.length && !confirmed) {
      const names = campaigns.map((c) => c.name).join(', ');
      const message = change === 'delete' ? `Campaigns use this template: ${names}` : `Campaigns use this template's buttons: ${names}`;
      throw new AppError('template_in_use', message, undefined, { campaigns: names, count: campaigns.length, change });
    }
    return campaigns.map((c) => c.id);
  }

  /** PUT names the template by name and language; channel, name and category are locked. */
  async update(session: Session, channelId: string, input: TemplateInput, confirmed = false): Promise<Template> {
    const channel = await this.channel(session, channelId);
    const current = await findLiveTemplateByName(this.ctx.db, session.tenantId, channel.id, input.name, input.language);
    if (!current) throw new AppError('template_not_found', 'Template not found');
    if (current.category === 'AUTHENTICATION')
      throw new AppError('template_authentication_locked', AUTHENTICATION_EDIT_MESSAGE, [
        { path: 'category', message: AUTHENTICATION_EDIT_MESSAGE },
      ]);
    if (input.category !== current.category)
      throw new AppError('template_category_locked', 'The category of a template cannot be changed', [
        { path: 'category', message: 'The category of a template cannot be changed' },
      ]);
    if (current.syncPending === 'delete') throw new AppError('template_being_deleted', 'This template is being deleted');
    const body = this.validated(input, channel.type, 'edit');
    const reviewed = REVIEWED_TYPES.has(channelKind(channel.type));
    return this.save(
      session,
      async (tx) => {
        // Renamed, added or removed quick replies: the campaigns' reply actions no longer match.
        const before = TemplateComponentSchema.array().safeParse(current.components);
        const buttonsChanged =
          !before.success || quickReplyTexts(before.data).join('\u0000') !== quickReplyTexts(body.components).join('\u0000');
        if (buttonsChanged) {
          const affected = await this.campaignsUsing(tx, session, current.id, confirmed, 'buttons');
          if (affected.length) await markCampaignActionsOutdated(tx, affected);
        }
        return updateTemplateComponents(tx, current.id, body.components as Prisma.InputJsonValue, reviewed);
      },
      reviewed ? 'edit' : null,
    );
  }

  /** Removed from lists at once; the provider is told by the worker (PENDING_DELETION meanwhile is not shown). */
  async remove(session: Session, id: string, confirmed = false): Promise<void> {
    const current = await findLiveWorkspaceTemplate(this.ctx.db, session, id);
    if (!current) throw new AppError('template_not_found', 'Template not found');
    const atProvider =
      REVIEWED_TYPES.has(channelKind(current.channel.type)) && (current.externalId !== null || current.syncPending !== 'submit');
    await this.save(
      session,
      async (tx) => {
        await this.campaignsUsing(tx, session, current.id, confirmed, 'delete');
        return markTemplateDeleted(tx, current.id, atProvider);
      },
      atProvider ? 'delete' : null,
    );
  }
}
