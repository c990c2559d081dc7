export * from './roles';
export * from './password';
export * from './phone';
export * from './distribution';
export * from './canned';
export * from './start-conversation';
export * from './contact-form';
export * from './tenant-config';
