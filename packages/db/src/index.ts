export { createDb, type Db } from './client';
export { runMigrations, ensureDatabase, listMigrations, MIGRATIONS_DIR } from './migrations';
export { hashPassword, verifyPassword, dummyPasswordHash } from './password';
export { scoped, type ScopedDb, type TenantScope } from './scoped';
export { Prisma } from '../generated/prisma/client';
export type * from '../generated/prisma/client';
export * as enums from '../generated/prisma/enums';
export { ensureTenant, ALL_FEATURES_ON, type TenantSpec, type CreatedTenant } from './fixtures';
export { seedDemo, DEMO_USERS, DEMO_PASSWORD, DEMO_DOMAIN } from './demo';
