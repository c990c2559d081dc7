// The conversation engine: rules shared by the api (requests) and the worker (jobs), so a rule is
// checked once wherever it runs (CONVENTIONS "Jobs").
export * from './deps';
export * from './engine';
export * from './present';
export * from './present-user';
export * from './queue';
export * from './presence';
