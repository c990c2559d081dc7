import { campaignSubscribersReport, campaignSummaryReport, type CampaignReportRow, type CampaignSummary } from '@atende/contract';
import type { FastifyInstance } from 'fastify';
import { bind, type Access } from '../../bind';
import type { AppContext } from '../../context';
import { exportFormat, sendExport } from '../reports/export';
import { campaignReportRange, CampaignReportService } from './report-service';

const COLUMNS: (keyof CampaignReportRow)[] = [
  'campaign_name',
  'name',
  'phone_number',
  'state',
  'error_message',
  'template',
  'sent_at',
  'delivery',
  'delivered_at',
  'read_at',
  'replied_at',
  'reply_action',
  'reply_text',
  'conversation_uuid',
];
type Summary = CampaignSummary & { uuid: string; name: string };
const SUMMARY_COLUMNS: (keyof Summary)[] = [
  'name',
  'subscribers_count',
  'sent_count',
  'delivered_count',
  'delivered_rate',
  'read_count',
  'read_rate',
  'replied_count',
  'replied_rate',
  'failed_count',
  'failed_rate',
  'error_count',
  'completed_count',
  'unknown_count',
];
const EXPORT_MAX_ROWS = 200_000;

export { campaignReportRange };

export function reportRoutes(app: FastifyInstance, ctx: AppContext, access: Access): void {
  const reports = new CampaignReportService(ctx);

  bind(app, campaignSubscribersReport, access, async ({ session, query, request, reply }) => {
    // Checked before any query starts: a bad filter is one 400, nothing left running.
    const filter = reports.filter(session, query);
    if (query._limit === 0) {
      return sendExport(
        reply,
        'campaign-report',
        exportFormat(query.format, request.headers.accept),
        COLUMNS,
        await reports.rows(filter, EXPORT_MAX_ROWS, 0),
        query.timezone,
      );
    }
    const [data, total] = await Promise.all([reports.rows(filter, query._limit, query._offset), reports.total(filter)]);
    return { data, pagination: { total, limit: query._limit, offset: query._offset } };
  });

  bind(app, campaignSummaryReport, access, async ({ session, query, request, reply }) => {
    const { total, campaigns } = await reports.summary(session, query);
    if (query._limit === 0) {
      // The summary's export: one line per campaign, then the total.
      const lines: Summary[] = [...campaigns, { uuid: '', name: 'Total', ...total }];
      return sendExport(
        reply,
        'campaign-summary',
        exportFormat(query.format, request.headers.accept),
        SUMMARY_COLUMNS,
        lines,
        query.timezone,
      );
    }
    return { data: { ...total, campaigns } };
  });
}
