import type { RouteObject } from 'react-router';
import { Guard } from '../../ui/guards';
import { SectionPage } from '../admin/SectionPage';

/**
 * Campaign routes under /admin/campaigns and /app/campaigns (spec 002 §2): role campaign_manager
 * plus flag outbound_campaign; the template manager also needs whatsapp_template_management.
 */
export const campaignRoutes: RouteObject[] = [
  {
    element: <Guard roles={['campaign_manager']} flags={['outbound_campaign']} />,
    children: [
      { index: true, element: <SectionPage title="Campaigns" /> },
      { path: ':id/subscribers', element: <SectionPage title="Subscribers" /> },
      { path: 'dnd-list', element: <SectionPage title="DND list" /> },
      {
        path: 'whatsapp-templates',
        element: <Guard flags={['whatsapp_template_management']}><SectionPage title="WhatsApp templates" empty="No templates found" /></Guard>,
      },
    ],
  },
];
