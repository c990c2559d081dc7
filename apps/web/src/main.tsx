import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { i18nReady } from './i18n';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/queryClient';
import { router } from './routes';
import { prefetchSession } from './session/session';
import { theme } from './ui/theme';

const queryClient = createQueryClient();
if (!location.pathname.startsWith('/login') && !location.pathname.startsWith('/livechat/')) prefetchSession(queryClient);
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const app = (
  <StrictMode>
    <MantineProvider theme={theme}>
      {/* spec 000 §9: at most 3 toasts at once */}
      <Notifications limit={3} position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>
);
// Portuguese users wait for their dictionary (a few KB); a failed fetch still renders, in English.
void i18nReady.catch(() => undefined).then(() => createRoot(root).render(app));
