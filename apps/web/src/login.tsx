import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import type { User } from '@atende/contract';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { homeFor } from './features/auth/home';
import { SignInForm } from './features/auth/SignInForm';
import { i18nReady } from './i18n';
import { rootElement } from './ui/rootElement';
import { theme } from './ui/theme';

// login.html's entry: the sign-in form alone, without the router, query cache,
// contract schemas or any screen. Once signed in, the app is loaded into the same page at the
// user's home, so nothing is fetched twice and the session answer is not asked again.
const root = rootElement();
const page = createRoot(root);

async function enterApp(me: User): Promise<void> {
  // The app's router reads the address when its module loads: the home path goes in first.
  history.replaceState(null, '', homeFor(me.roles.map((r) => r.name)) ?? '/');
  let app: typeof import('./app');
  try {
    app = await import('./app');
  } catch {
    // A failed chunk fetch (e.g. a release in between): the home page, loaded the ordinary way.
    location.reload();
    return;
  }
  page.unmount();
  await app.mountApp(root, me);
}

const onSignedIn = (me: User) => void enterApp(me);

void i18nReady
  .catch(() => undefined)
  .then(() =>
    page.render(
      <StrictMode>
        <MantineProvider theme={theme}>
          <SignInForm onSignedIn={onSignedIn} />
        </MantineProvider>
      </StrictMode>,
    ),
  );
