import type { RouteObject } from 'react-router';
import { Guard } from '../../ui/guards';
import { campaignRoutes } from '../campaigns/campaignRoutes';
import { REPORT_DEFINITIONS } from '../reports/definitions';
import type { HubLink } from './HubPage';
import { lazyPage } from '../../ui/lazyPage';

const AdminIndex = lazyPage(() => import('./AdminIndex'), 'AdminIndex');
const HubPage = lazyPage(() => import('./HubPage'), 'HubPage');
const CampaignReportPage = lazyPage(() => import('../campaigns/CampaignReportPage'), 'CampaignReportPage');
const AdminReportPage = lazyPage(() => import('../reports/AdminReportPage'), 'AdminReportPage');
const BotsReportPage = lazyPage(() => import('../reports/BotsReportPage'), 'BotsReportPage');
const BotEditorPage = lazyPage(() => import('../bots/BotEditorPage'), 'BotEditorPage');
const BotsPage = lazyPage(() => import('../bots/BotsPage'), 'BotsPage');
const AutomationsPage = lazyPage(() => import('../automations/AutomationsPage'), 'AutomationsPage');
const IntegrationsPage = lazyPage(() => import('../integrations/IntegrationsPage'), 'IntegrationsPage');
const ChannelSettingsPage = lazyPage(() => import('../menus/ChannelSettingsPage'), 'ChannelSettingsPage');
const MenusPage = lazyPage(() => import('../menus/MenusPage'), 'MenusPage');
const ConversationFieldsPage = lazyPage(() => import('../surveys/ConversationFieldsPage'), 'ConversationFieldsPage');
const SurveyResultPage = lazyPage(() => import('../surveys/SurveyResultPage'), 'SurveyResultPage');
const SurveysPage = lazyPage(() => import('../surveys/SurveysPage'), 'SurveysPage');
const ContactsPage = lazyPage(() => import('../contacts/ContactsPage'), 'ContactsPage');
const OpeningHoursPage = lazyPage(() => import('../settings/OpeningHoursPage'), 'OpeningHoursPage');
const UsersPage = lazyPage(() => import('../settings/users/UsersPage'), 'UsersPage');
const WorkspaceSettingsPage = lazyPage(() => import('../settings/WorkspaceSettingsPage'), 'WorkspaceSettingsPage');
const TenantDetailPage = lazyPage(() => import('../tenants/TenantDetailPage'), 'TenantDetailPage');
const TenantsPage = lazyPage(() => import('../tenants/TenantsPage'), 'TenantsPage');
const CannedResponsesPage = lazyPage(() => import('../settings/CannedResponsesPage'), 'CannedResponsesPage');
const ConversationReasonsPage = lazyPage(() => import('../settings/ConversationReasonsPage'), 'ConversationReasonsPage');
const PausesPage = lazyPage(() => import('../settings/PausesPage'), 'PausesPage');
const SectorsPage = lazyPage(() => import('../settings/SectorsPage'), 'SectorsPage');
const FirstStepsPage = lazyPage(() => import('./FirstStepsPage'), 'FirstStepsPage');
const OmnichannelDashboardPage = lazyPage(() => import('./OmnichannelDashboardPage'), 'OmnichannelDashboardPage');

/** Reports children and their guards. */
const REPORTS: (HubLink & { element: RouteObject['element'] })[] = [
  { path: 'chat-history', title: 'Chat history', element: <AdminReportPage report={REPORT_DEFINITIONS['chat-history']} /> },
  {
    path: 'agents-productivity',
    title: 'Agents productivity',
    element: <AdminReportPage report={REPORT_DEFINITIONS['agents-productivity']} />,
  },
  { path: 'session-rate', title: 'Session rate', element: <AdminReportPage report={REPORT_DEFINITIONS['session-rate']} /> },
  {
    path: 'session-rate-by-agent',
    title: 'Session rate by agent',
    element: <AdminReportPage report={REPORT_DEFINITIONS['session-rate-by-agent']} />,
  },
  {
    path: 'session-volume-trends',
    title: 'Session volume trends',
    element: <AdminReportPage report={REPORT_DEFINITIONS['session-volume-trends']} />,
  },
  {
    path: 'session-metrics',
    title: 'Session metrics',
    permission: 'reports.session_metrics',
    element: (
      <Guard permission="reports.session_metrics">
        <AdminReportPage report={REPORT_DEFINITIONS['session-metrics']} />
      </Guard>
    ),
  },
  {
    path: 'campaigns',
    title: 'Campaigns',
    permission: 'campaigns',
    element: (
      <Guard permission="campaigns">
        <CampaignReportPage />
      </Guard>
    ),
  },
  {
    path: 'bots',
    title: 'Bots',
    permission: 'reports.bots',
    element: (
      <Guard permission="reports.bots">
        <BotsReportPage />
      </Guard>
    ),
  },
  {
    path: 'surveys',
    title: 'Surveys',
    permission: 'reports.surveys',
    element: (
      <Guard permission="reports.surveys">
        <AdminReportPage report={REPORT_DEFINITIONS.surveys} />
      </Guard>
    ),
  },
  {
    path: 'login-history',
    title: 'Login history',
    permission: 'reports.login_history',
    element: (
      <Guard permission="reports.login_history">
        <AdminReportPage report={REPORT_DEFINITIONS['login-history']} />
      </Guard>
    ),
  },
];

/** Settings children and their guards; the hub shows the cards the spec lists, plus Sectors. */
const SETTINGS: (HubLink & { element: RouteObject['element'] })[] = [
  { path: 'automations', title: 'Automations', element: <AutomationsPage /> },
  { path: 'surveys', title: 'Surveys', element: <SurveysPage /> },
  {
    path: 'integrations',
    title: 'System integrations',
    permission: 'integrations',
    element: (
      <Guard permission="integrations">
        <IntegrationsPage />
      </Guard>
    ),
  },
  { path: 'opening-hours', title: 'Opening hours', element: <OpeningHoursPage /> },
  { path: 'automated-menu', title: 'Automated menu', element: <MenusPage /> },
  { path: 'pauses', title: 'Pauses', element: <PausesPage /> },
  { path: 'sectors', title: 'Sectors', element: <SectorsPage /> },
  {
    path: 'canned-responses',
    title: 'Canned responses',
    permission: 'settings.canned_responses',
    element: (
      <Guard permission="settings.canned_responses">
        <CannedResponsesPage />
      </Guard>
    ),
  },
  { path: 'workspace', title: 'Workspace', element: <WorkspaceSettingsPage /> },
  // User rules; managing users is for admin and owner, as the api enforces.
  {
    path: 'users',
    title: 'Users',
    permission: 'users.manage',
    element: (
      <Guard permission="users.manage">
        <UsersPage />
      </Guard>
    ),
  },
  {
    path: 'bots',
    title: 'Bots',
    permission: 'bots.manage',
    element: (
      <Guard permission="bots.manage">
        <BotsPage />
      </Guard>
    ),
  },
  // Every settings screen has its card.
  {
    path: 'conversation-reasons',
    title: 'Conversation reasons',
    permission: 'settings.conversation_reasons',
    element: (
      <Guard permission="settings.conversation_reasons">
        <ConversationReasonsPage />
      </Guard>
    ),
  },
  {
    path: 'conversation-fields',
    title: 'Conversation fields',
    permission: 'conversation_fields.define',
    element: (
      <Guard permission="conversation_fields.define">
        <ConversationFieldsPage />
      </Guard>
    ),
  },
];
const SETTINGS_HIDDEN: RouteObject[] = [
  {
    path: 'bots/bot-editor/:id',
    element: (
      <Guard permission="bots.manage">
        <BotEditorPage />
      </Guard>
    ),
  },
  { path: 'surveys/:id', element: <SurveyResultPage /> },
  { path: 'workspace/channels/:id', element: <ChannelSettingsPage /> },
];

/** Children of /admin. The area itself is guarded by AdminLayout. */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <AdminIndex /> },
  {
    path: 'dashboard-omnichannel/*',
    element: (
      <Guard permission="dashboard.omnichannel">
        <OmnichannelDashboardPage />
      </Guard>
    ),
  },
  {
    path: 'first-steps',
    element: (
      <Guard flags={['first_steps']}>
        <FirstStepsPage />
      </Guard>
    ),
  },
  {
    path: 'reports',
    children: [
      {
        index: true,
        element: (
          <Guard permission="reports">
            <HubPage title="Reports" links={REPORTS} />
          </Guard>
        ),
      },
      // The campaign report is the campaigns row's (campaign_manager plus outbound_campaign),
      // not the supervisors' reports row: a campaign manager opens it too.
      ...REPORTS.map(({ path, element }) => ({
        path,
        element: path === 'campaigns' ? element : <Guard permission="reports">{element}</Guard>,
      })),
    ],
  },
  {
    path: 'contacts',
    element: (
      <Guard permission="admin_area">
        <ContactsPage />
      </Guard>
    ),
  },
  {
    path: 'tenants',
    element: <Guard permission="tenants" />,
    children: [
      { index: true, element: <TenantsPage /> },
      { path: ':uuid', element: <TenantDetailPage /> },
    ],
  },
  { path: 'campaigns', children: campaignRoutes },
  {
    path: 'settings',
    element: <Guard permission="admin_area" />,
    children: [
      { index: true, element: <HubPage title="Settings" links={SETTINGS} /> },
      ...SETTINGS.map(({ path, element }) => ({ path, element })),
      ...SETTINGS_HIDDEN,
    ],
  },
];
