// The settings of the api and the worker: what both read, the rules over them, and the generator of
// .env.example. Each app's env.ts adds its own group and is that app's only reader of process.env.
export { DEV_CHANNEL_SECRETS_KEY, DEV_FILE_LINK_SECRET, parseSecretsKey } from './secrets';
export { refineStorageSettings, STORAGE_SETTINGS, StorageSettingsSchema, type StorageSettings } from './storage-settings';
export {
  defaultOf,
  defaultPublicUrl,
  parseSettings,
  readSharedSettings,
  SHARED_SETTINGS,
  settingsGroup,
  settingsSchema,
  unsetWhenEmpty,
  type SettingsGroup,
} from './settings';
export { renderEnvExample, type EnvExampleSection } from './env-example';
