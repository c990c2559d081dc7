import { createBrowserRouter, Navigate, Outlet } from 'react-router';
import { LoginPage } from './features/auth/LoginPage';
import { SsoLoadPage } from './features/auth/SsoLoadPage';
import { homeFor } from './features/auth/home';
import { AdminIndex } from './features/admin/AdminIndex';
import { FirstStepsPage } from './features/admin/FirstStepsPage';
import { SectionPage } from './features/admin/SectionPage';
import { TenantDetailPage, TenantsPage } from './features/admin/TenantsPage';
import { AdminLayout } from './features/layout/AdminLayout';
import { AppLayout } from './features/layout/AppLayout';
import { Authenticated } from './features/layout/Authenticated';
import { ChatHistoryPage } from './features/workstation/ChatHistoryPage';
import { ExternalSystemPage } from './features/workstation/ExternalSystemPage';
import { WorkstationPage } from './features/workstation/WorkstationPage';
import { useMe } from './session/session';
import { ErrorHandler } from './ui/ErrorHandler';
import { RouteErrorPage } from './ui/ErrorBoundary';
import { RequireFlag, RequireRole } from './ui/guards';
import { LoadingState } from './ui/states';

function Root() {
  return (
    <>
      <ErrorHandler />
      <Outlet />
    </>
  );
}

function Home() {
  const me = useMe();
  if (me.data) return <Navigate to={homeFor(me.data.roles.map((r) => r.name))} replace />;
  if (me.isError) return <Navigate to="/login" replace />;
  return <LoadingState />;
}

const campaigns = (
  <RequireRole roles={['campaign_manager']}>
    <RequireFlag flag="outbound_campaign">
      <SectionPage title="Campaigns" />
    </RequireFlag>
  </RequireRole>
);

/** Routes of spec 000 §2 and 002 §2 with their guards. */
export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/login', element: <LoginPage /> },
      { path: '/ssoload', element: <SsoLoadPage /> },
      {
        element: <Authenticated />,
        children: [
          { path: '/', element: <Home /> },
          {
            path: '/app',
            element: <AppLayout />,
            children: [
              { index: true, element: <WorkstationPage /> },
              { path: 'chat-history', element: <ChatHistoryPage /> },
              { path: 'external-system', element: <ExternalSystemPage /> },
              { path: 'campaigns/*', element: campaigns },
            ],
          },
          {
            path: '/admin',
            element: <AdminLayout />,
            children: [
              { index: true, element: <AdminIndex /> },
              {
                path: 'dashboard-omnichannel/*',
                element: (
                  <RequireRole roles={['supervisor']}>
                    <RequireFlag flag="omnichannel_dashboard">
                      <SectionPage title="Omnichannel panel" />
                    </RequireFlag>
                  </RequireRole>
                ),
              },
              { path: 'first-steps', element: <RequireFlag flag="first_steps"><FirstStepsPage /></RequireFlag> },
              { path: 'reports/*', element: <RequireRole roles={['supervisor']}><SectionPage title="Reports" /></RequireRole> },
              { path: 'contacts', element: <RequireRole roles={['supervisor']}><SectionPage title="Contacts" /></RequireRole> },
              { path: 'settings/*', element: <RequireRole roles={['supervisor']}><SectionPage title="Settings" /></RequireRole> },
              { path: 'campaigns/*', element: campaigns },
              { path: 'tenants', element: <RequireRole roles={['tenant_admin']}><TenantsPage /></RequireRole> },
              { path: 'tenants/:uuid', element: <RequireRole roles={['tenant_admin']}><TenantDetailPage /></RequireRole> },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
]);
