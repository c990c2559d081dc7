export * from './roles';
export * from './password';
