import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './ui/toasts.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import type { User } from '@atende/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient } from './api/queryClient';
import { i18nReady } from './i18n';
import { router } from './routes';
import { prefetchSession, queryKeys } from './session/session';
import { theme } from './ui/theme';

/**
 * Renders the whole web app into `root`: from index.html at once, and from login.html (which has
 * only the sign-in form) once the user is signed in, with that user already known.
 */
export async function mountApp(root: HTMLElement, signedIn?: User): Promise<void> {
  const queryClient = createQueryClient();
  if (signedIn) queryClient.setQueryData(queryKeys.me, signedIn);
  if (!location.pathname.startsWith('/login') && !location.pathname.startsWith('/livechat/'))
    prefetchSession(queryClient, location.pathname);
  // Portuguese users wait for their dictionary (a few KB); a failed fetch still renders, in English.
  await i18nReady.catch(() => undefined);
  createRoot(root).render(
    <StrictMode>
      <MantineProvider theme={theme}>
        {/* At most 3 toasts at once */}
        <Notifications limit={3} position="bottom-left" containerWidth={320} />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  );
}
