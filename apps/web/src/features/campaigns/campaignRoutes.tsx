import type { RouteObject } from 'react-router';
import { Guard } from '../../ui/guards';
import { TemplatesPage } from '../templates/TemplatesPage';
import { CampaignReportPage } from './CampaignReportPage';
import { CampaignsPage } from './CampaignsPage';
import { DndListsPage } from './DndListsPage';
import { SubscribersPage } from './SubscribersPage';

/**
 * Campaign routes under /admin/campaigns and /app/campaigns (spec 002 §2): the role matrix's
 * campaigns row (campaign_manager, admin, owner; flag outbound_campaign); the template manager's
 * row adds whatsapp_template_management.
 */
export const campaignRoutes: RouteObject[] = [
  {
    element: <Guard permission="campaigns" />,
    children: [
      { index: true, element: <CampaignsPage /> },
      { path: ':id/subscribers', element: <SubscribersPage /> },
      { path: 'report', element: <CampaignReportPage /> },
      { path: 'dnd-list', element: <DndListsPage /> },
      {
        path: 'whatsapp-templates',
        element: (
          <Guard permission="templates.manage">
            <TemplatesPage />
          </Guard>
        ),
      },
    ],
  },
];
