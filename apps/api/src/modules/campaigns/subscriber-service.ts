import {
  AppError,
  DELIVERY_STATES,
  queues,
  SUBSCRIBER_IMPORT_ERRORS,
  type listSubscribers,
  type QueryOf,
  type Subscriber,
  type SubscriberImportJob,
} from '@atende/contract';
import { announceCampaign, presentTemplate, type CampaignRow } from '@atende/conversations';
import { missingParameter, templateParameterCount } from '@atende/core';
import {
  campaignSubscriberById,
  claimSubscriberImport,
  deletePendingSubscriber,
  enqueue,
  findCampaignSubscriber,
  listCampaignSubscribersPage,
  moveSubscriberState,
  recordSubscriberImportFile,
  releaseUnknownSubscribers,
  templateRowById,
  withTransaction,
  type CampaignSubscriber,
  type SubscriberImportFile,
} from '@atende/db';
import type { Template } from '@atende/contract';
import type { AppContext } from '../../context';
import type { Session } from '../session/session';
import { pageWindow } from '../../paging';
import type { CampaignService } from './service';

export const IMPORT_MESSAGES = {
  notCsv: 'File parameter must be a csv file',
  columns: SUBSCRIBER_IMPORT_ERRORS.columns,
  templateDeleted: 'Não é possível importar assinantes para uma campanha que teve seu template deletado',
  busy: 'An import is already in progress for this campaign',
  onlyPending: 'Only subscribers with pending state can be deleted',
  notEditable: 'Only pending, error or completed subscribers can be edited',
} as const;

const EDITABLE = new Set(['pending', 'error', 'completed']);

const present = (s: CampaignSubscriber): Subscriber => ({
  uuid: s.id,
  contact: { uuid: s.contactId ?? s.id, name: s.name, phone_number: s.phoneNumber },
  state: s.state as Subscriber['state'],
  parameters: s.parameters,
  error_message: s.errorMessage,
  sent_at: s.sentAt?.toISOString() ?? null,
  delivery: (DELIVERY_STATES as readonly string[]).includes(s.delivery ?? '') ? (s.delivery as Subscriber['delivery']) : null,
  delivered_at: s.deliveredAt?.toISOString() ?? null,
  read_at: s.readAt?.toISOString() ?? null,
  replied_at: s.repliedAt?.toISOString() ?? null,
});

/** A campaign's subscribers: their list, edits, resends and the start of their import. */
export class SubscriberService {
  constructor(
    private readonly ctx: AppContext,
    private readonly campaigns: CampaignService,
  ) {}

  private async subscriber(tenantId: string, campaignId: string, id: string): Promise<CampaignSubscriber> {
    const row = await findCampaignSubscriber(this.ctx.db, tenantId, campaignId, id);
    if (!row) throw new AppError('subscriber_not_found', 'Subscriber not found');
    return row;
  }

  async list(session: Session, campaignId: string, states: string[] | undefined, query: QueryOf<typeof listSubscribers>) {
    await this.campaigns.row(session, campaignId);
    const { rows, total } = await listCampaignSubscribersPage(this.ctx.db, session.tenantId, campaignId, states, pageWindow(query));
    return { data: rows.map(present), pagination: { total, limit: query._limit, offset: query._offset } };
  }

  async update(session: Session, campaignId: string, id: string, state: string): Promise<Subscriber> {
    await this.campaigns.row(session, campaignId);
    const row = await this.subscriber(session.tenantId, campaignId, id);
    if (!EDITABLE.has(row.state)) throw new AppError('subscriber_not_editable', IMPORT_MESSAGES.notEditable);
    if (!EDITABLE.has(state))
      throw new AppError('subscriber_state_not_editable', IMPORT_MESSAGES.notEditable, [
        { path: 'state', message: IMPORT_MESSAGES.notEditable },
      ]);
    if (state === 'pending' && row.state !== 'pending') {
      // A subscriber who got the campaign is never queued again (the provider would take the same
      // idempotency key as a send already made), and one back from an error must now have every
      // parameter the template needs.
      if (row.sentAt || row.state === 'completed')
        throw new AppError('subscriber_already_sent', 'This subscriber already received the campaign: it cannot be sent it again');
      const campaign = await this.campaigns.row(session, campaignId);
      const template = await templateRowById(this.ctx.db, campaign.templateId);
      const missing = missingParameter(row.parameters, templateParameterCount(presentTemplate(template).config.components));
      if (missing !== null)
        throw new AppError(
          'subscriber_parameter_missing',
          `Parameter ${missing} is required`,
          [{ path: 'parameters', message: `Parameter ${missing} is required` }],
          { n: missing },
        );
    }
    // Only a row still in the state read is changed: a sender that took it meanwhile wins.
    const changed = await moveSubscriberState(this.ctx.db, row.id, row.state, state);
    if (!changed) throw new AppError('subscriber_changed', 'The subscriber changed meanwhile; reload and try again');
    await announceCampaign(this.ctx, campaignId);
    return present(await campaignSubscriberById(this.ctx.db, row.id));
  }

  /**
   * The campaign's 'unknown' subscribers back to pending: the dispatcher never sends one again by
   * itself (the provider would make a repeat a second message); the manager, warned by the screen, may.
   */
  async resendUnknown(session: Session, campaignId: string): Promise<number> {
    await this.campaigns.row(session, campaignId);
    const resent = await releaseUnknownSubscribers(this.ctx.db, session.tenantId, campaignId);
    if (resent > 0) await announceCampaign(this.ctx, campaignId);
    return resent;
  }

  async remove(session: Session, campaignId: string, id: string): Promise<void> {
    await this.campaigns.row(session, campaignId);
    const row = await this.subscriber(session.tenantId, campaignId, id);
    const removed = await deletePendingSubscriber(this.ctx.db, row.id);
    if (!removed) throw new AppError('subscriber_not_pending', IMPORT_MESSAGES.onlyPending);
    await announceCampaign(this.ctx, campaignId);
  }

  /** The campaign and its template, for the subscriber file's template. */
  async withTemplate(session: Session, campaignId: string): Promise<{ campaign: CampaignRow; template: Template }> {
    const campaign = await this.campaigns.row(session, campaignId);
    return { campaign, template: presentTemplate(await templateRowById(this.ctx.db, campaign.templateId)) };
  }

  /**
   * Claims the campaign's import and records its stored file and job, together: the worker picks it
   * up once committed. False when another import took the campaign meanwhile.
   */
  async startImport(file: SubscriberImportFile, payload: SubscriberImportJob): Promise<boolean> {
    return withTransaction(this.ctx.db, async (tx) => {
      if (!(await claimSubscriberImport(tx, file.campaignId))) return false;
      await recordSubscriberImportFile(tx, file);
      await enqueue(tx, queues.subscriberImport.name, payload);
      return true;
    });
  }
}
