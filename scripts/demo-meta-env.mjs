// The api's Meta app for `pnpm start` and the e2e stack: the demo Meta (packages/simulators/src/meta/demo-provider.ts)
// plays Facebook Login for the /messenger-setup and /instagram-setup screens. The values are those of
// packages/simulators/src/meta/demo-defaults.ts. An operator's own META_APP_ID keeps their whole Meta configuration.
export function demoMetaEnv(source, messengerPort, instagramPort) {
  if (source.META_APP_ID) return {};
  const messenger = `http://127.0.0.1:${messengerPort}`;
  const instagram = `http://127.0.0.1:${instagramPort}`;
  return {
    META_APP_ID: '4015000000000001',
    META_APP_SECRET: source.DEMO_META_APP_SECRET ?? 'demo-messenger-app-secret',
    META_VERIFY_TOKEN: source.DEMO_META_VERIFY_TOKEN ?? 'demo-messenger-verify-token',
    META_GRAPH_URL: messenger,
    META_DIALOG_URL: messenger,
    META_INSTAGRAM_GRAPH_URL: instagram,
    META_INSTAGRAM_DIALOG_URL: instagram,
  };
}
