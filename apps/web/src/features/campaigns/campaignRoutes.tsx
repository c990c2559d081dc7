import type { RouteObject } from 'react-router';
import { Guard } from '../../ui/guards';
import { lazyPage } from '../../ui/lazyPage';

const TemplatesPage = lazyPage(() => import('../templates/TemplatesPage'), 'TemplatesPage');
const CampaignReportPage = lazyPage(() => import('./CampaignReportPage'), 'CampaignReportPage');
const CampaignsPage = lazyPage(() => import('./CampaignsPage'), 'CampaignsPage');
const DndListsPage = lazyPage(() => import('./DndListsPage'), 'DndListsPage');
const SubscribersPage = lazyPage(() => import('./SubscribersPage'), 'SubscribersPage');

/**
 * Campaign routes under /admin/campaigns and /app/campaigns: the role matrix's
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
