// The conversation engine: rules shared by the api (requests) and the worker (jobs), so a rule is
// checked once wherever it runs.
export * from './deps';
export * from './engine';
export * from './present';
export * from './present-user';
export * from './queue';
export * from './presence';
export * from './inbound';
export * from './templates';
export * from './campaigns';
export * from './campaign-message';
export * from './subscriber-file';
export * from './conversation-entry';
export * from './reply-actions';
export * from './surveys';
export * from './system-text';
export * from './menus';
export * from './automations';
export * from './out-of-hours';
export * from './bots';
export * from './bot-http';
export * from './template-failure';
export * from './ticket';
