import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { adminRoutes } from './features/admin/adminRoutes';
import { homeFor } from './features/auth/home';
import { LoginPage } from './features/auth/LoginPage';
import { NoAccessPage } from './features/auth/NoAccessPage';
import { campaignRoutes } from './features/campaigns/campaignRoutes';
import { opensAgentScreen, useMe } from './session/session';
import { RouteErrorPage } from './ui/ErrorBoundary';
import { ErrorHandler } from './ui/ErrorHandler';
import { Guard } from './ui/guards';
import { ErrorState, LoadingState } from './ui/states';
import { lazyPage } from './ui/lazyPage';

// The layouts and the agent's screen are lazy *routes*: the router fetches them before it renders the
// route, so no Suspense fallback (and React's reveal throttle) stands between layers.
const loadAuthenticated = () => import('./features/layout/Authenticated');
const loadAppLayout = () => import('./features/layout/AppLayout');
const loadWorkstation = () => import('./features/workstation/WorkstationPage');
const loadAdminLayout = () => import('./features/layout/AdminLayout');
// The agent's screen is fetched at once, beside the session and the dictionary, not one chunk after another.
if (typeof location !== 'undefined' && opensAgentScreen(location.pathname)) {
  void loadAuthenticated();
  void loadAppLayout();
  void loadWorkstation();
}
const SsoLoadPage = lazyPage(() => import('./features/auth/SsoLoadPage'), 'SsoLoadPage');
const ChatHistoryPage = lazyPage(() => import('./features/workstation/ChatHistoryPage'), 'ChatHistoryPage');
const ConversationViewPage = lazyPage(() => import('./features/workstation/ConversationViewPage'), 'ConversationViewPage');
const JourneyCallPage = lazyPage(() => import('./features/workstation/JourneyCallPage'), 'JourneyCallPage');
const ExternalSystemPage = lazyPage(() => import('./features/workstation/ExternalSystemPage'), 'ExternalSystemPage');

function Root() {
  return (
    <>
      <ErrorHandler />
      <Outlet />
    </>
  );
}

/** `/`: where the signed-in user belongs (/app for agents, otherwise /admin). */
function Home() {
  const me = useMe();
  if (me.data) {
    const home = homeFor(me.data.roles.map((r) => r.name));
    return home ? <Navigate to={home} replace /> : <NoAccessPage />;
  }
  if (me.isError) return <ErrorState onRetry={() => void me.refetch()} />;
  return <LoadingState />;
}

const SUPERVISORS = ['supervisor', 'manager', 'admin'] as const;

/** Routes with their guards. */
export const router = createBrowserRouter([
  // The public livechat widget: no session, no agent error handling; its own chunk.
  {
    path: '/livechat/:channelUuid',
    errorElement: <RouteErrorPage />,
    lazy: async () => ({ Component: (await import('./features/livechat/LivechatWidgetPage')).LivechatWidgetPage }),
  },
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/ssoload', element: <SsoLoadPage /> },
      {
        // Login first (else /login), then the layouts check roles.
        lazy: async () => ({ Component: (await loadAuthenticated()).Authenticated }),
        children: [
          { path: '/', element: <Home /> },
          {
            path: '/app',
            lazy: async () => ({ Component: (await loadAppLayout()).AppLayout }),
            children: [
              { index: true, lazy: async () => ({ Component: (await loadWorkstation()).WorkstationPage }) },
              { path: 'chat-history', element: <ChatHistoryPage /> },
              { path: 'external-system', element: <ExternalSystemPage /> },
              { path: 'campaigns', children: campaignRoutes },
            ],
          },
          { path: '/admin', lazy: async () => ({ Component: (await loadAdminLayout()).AdminLayout }), children: adminRoutes },
          // Channel setup screens: a page connected through Meta's login; admins only, own chunk.
          {
            element: <Guard permission="settings.channels.write" />,
            children: [
              {
                path: '/messenger-setup',
                lazy: async () => ({ Component: (await import('./features/settings/MetaSetupPage')).MessengerSetupPage }),
              },
              {
                path: '/instagram-setup',
                lazy: async () => ({ Component: (await import('./features/settings/MetaSetupPage')).InstagramSetupPage }),
              },
            ],
          },
          // Conversations opened by URL.
          {
            element: <Guard roles={SUPERVISORS} />,
            children: [
              { path: '/chat/:conversationId', element: <ConversationViewPage mode="live" /> },
              { path: '/chat-history/:initiator/:conversationId', element: <ConversationViewPage mode="history" /> },
            ],
          },
          // The campaign report's conversation link: campaign managers read the
          // conversations their campaigns' replies opened (the api decides which).
          {
            element: <Guard roles={[...SUPERVISORS, 'campaign_manager']} />,
            children: [{ path: '/chat-history/reports/:conversationId', element: <ConversationViewPage mode="history" /> }],
          },
          {
            element: <Guard roles={['agent']} />,
            children: [
              { path: '/agent-chat-history/:initiator/:conversationId', element: <ConversationViewPage mode="history" /> },
              { path: '/client-journey/:initiator/:conversationId', element: <ConversationViewPage mode="history" /> },
              { path: '/client-journey-call-history/:contactUuid/:eventUuid', element: <JourneyCallPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
