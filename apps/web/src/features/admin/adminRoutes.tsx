import type { RouteObject } from 'react-router';
import { Guard } from '../../ui/guards';
import { campaignRoutes } from '../campaigns/campaignRoutes';
import { TenantDetailPage } from '../tenants/TenantDetailPage';
import { TenantsPage } from '../tenants/TenantsPage';
import { AdminIndex } from './AdminIndex';
import { FirstStepsPage } from './FirstStepsPage';
import { HubPage, type HubLink } from './HubPage';
import { OmnichannelDashboardPage } from './OmnichannelDashboardPage';
import { SectionPage } from './SectionPage';

const section = (title: string) => <SectionPage title={title} />;

/** Reports children and their guards (spec 002 §2). */
const REPORTS: (HubLink & { element: RouteObject['element'] })[] = [
  { path: 'chat-history', title: 'Chat history', element: section('Chat history') },
  { path: 'agents-productivity', title: 'Agents productivity', element: section('Agents productivity') },
  { path: 'session-rate', title: 'Session rate', element: section('Session rate') },
  { path: 'session-rate-by-agent', title: 'Session rate by agent', element: section('Session rate by agent') },
  { path: 'session-volume-trends', title: 'Session volume trends', element: section('Session volume trends') },
  { path: 'session-metrics', title: 'Session metrics', flags: ['session_metrics_report'], element: <Guard flags={['session_metrics_report']}>{section('Session metrics')}</Guard> },
  {
    path: 'campaigns', title: 'Campaigns', roles: ['campaign_manager'], flags: ['outbound_campaign'],
    element: <Guard roles={['campaign_manager']} flags={['outbound_campaign']}>{section('Campaigns')}</Guard>,
  },
  { path: 'bots', title: 'Bots', flags: ['bots_report'], element: <Guard flags={['bots_report']}>{section('Bots')}</Guard> },
  { path: 'surveys', title: 'Surveys', flags: ['surveys_report'], element: <Guard flags={['surveys_report']}>{section('Surveys')}</Guard> },
  { path: 'login-history', title: 'Login history', roles: ['manager'], element: <Guard roles={['manager']}>{section('Login history')}</Guard> },
];

/** Settings children and their guards (spec 002 §2); the hub shows the cards the spec lists. */
const SETTINGS: (HubLink & { element: RouteObject['element'] })[] = [
  { path: 'automations', title: 'Automations', element: section('Automations') },
  { path: 'surveys', title: 'Surveys', element: section('Surveys') },
  { path: 'integrations', title: 'System integrations', roles: ['admin'], element: <Guard roles={['admin']}>{section('System integrations')}</Guard> },
  { path: 'opening-hours', title: 'Opening hours', element: section('Opening hours') },
  { path: 'automated-menu', title: 'Automated menu', element: section('Automated menu') },
  { path: 'pauses', title: 'Pauses', element: section('Pauses') },
  { path: 'canned-responses', title: 'Canned responses', flags: ['canned_responses'], element: <Guard flags={['canned_responses']}>{section('Canned responses')}</Guard> },
  { path: 'workspace', title: 'Workspace', element: section('Workspace') },
  { path: 'bots', title: 'Bots', roles: ['admin'], flags: ['bots_interface'], element: <Guard roles={['admin']} flags={['bots_interface']}>{section('Bots')}</Guard> },
];
const SETTINGS_HIDDEN: RouteObject[] = [
  { path: 'bots/bot-editor/:id', element: <Guard roles={['admin']} flags={['bots_interface']}>{section('Bot editor')}</Guard> },
  { path: 'conversation-fields', element: <Guard flags={['conversation_fields']}>{section('Conversation fields')}</Guard> },
  { path: 'surveys/:id', element: section('Surveys') },
  { path: 'workspace/channels/:id', element: section('Channels') },
  { path: 'conversation-reasons', element: <Guard roles={['admin']}>{section('Conversation reasons')}</Guard> },
];

/** Children of /admin (spec 002 §2). The area itself is guarded by AdminLayout. */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <AdminIndex /> },
  {
    path: 'dashboard-omnichannel/*',
    element: <Guard roles={['supervisor']} flags={['omnichannel_dashboard']}><OmnichannelDashboardPage /></Guard>,
  },
  { path: 'first-steps', element: <Guard flags={['first_steps']}><FirstStepsPage /></Guard> },
  {
    path: 'reports',
    element: <Guard roles={['supervisor']} />,
    children: [
      { index: true, element: <HubPage title="Reports" links={REPORTS} /> },
      ...REPORTS.map(({ path, element }) => ({ path, element })),
    ],
  },
  { path: 'contacts', element: <Guard roles={['supervisor']}>{section('Contacts')}</Guard> },
  {
    path: 'tenants',
    element: <Guard roles={['tenant_admin']} />,
    children: [
      { index: true, element: <TenantsPage /> },
      { path: ':uuid', element: <TenantDetailPage /> },
    ],
  },
  { path: 'campaigns', children: campaignRoutes },
  {
    path: 'settings',
    element: <Guard roles={['supervisor']} />,
    children: [
      { index: true, element: <HubPage title="Settings" links={SETTINGS} /> },
      ...SETTINGS.map(({ path, element }) => ({ path, element })),
      ...SETTINGS_HIDDEN,
    ],
  },
];
