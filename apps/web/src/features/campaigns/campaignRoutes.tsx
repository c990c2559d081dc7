import type { RouteObject } from 'react-router';
import { Guard } from '../../ui/guards';
import { lazyPage } from '../../ui/lazyPage';

const TemplatesPage = lazyPage(() => import('../templates/TemplatesPage'), 'TemplatesPage');
const CampaignReportPage = lazyPage(() => import('./CampaignReportPage'), 'CampaignReportPage');
const CampaignsPage = lazyPage(() => import('./CampaignsPage'), 'CampaignsPage');
const DndListsPage = lazyPage(() => import('./DndListsPage'), 'DndListsPage');
const SubscribersPage = lazyPage(() => import('./SubscribersPage'), 'SubscribersPage');

/**
 * Campaign routes under /admin/campaigns and /app/campaigns (spec 002 §2): role campaign_manager
 * plus flag outbound_campaign; the template manager also needs whatsapp_template_management.
 */
export const campaignRoutes: RouteObject[] = [
  {
    element: <Guard roles={['campaign_manager']} flags={['outbound_campaign']} />,
    children: [
      { index: true, element: <CampaignsPage /> },
      { path: ':id/subscribers', element: <SubscribersPage /> },
      { path: 'report', element: <CampaignReportPage /> },
      { path: 'dnd-list', element: <DndListsPage /> },
      {
        path: 'whatsapp-templates',
        element: (
          <Guard flags={['whatsapp_template_management']}>
            <TemplatesPage />
          </Guard>
        ),
      },
    ],
  },
];
