import type { Db } from './client';

/** The caller's tenant, always taken from the session. */
export interface TenantScope {
  tenantId: string;
}

type Args = Record<string, unknown> & { where?: Record<string, unknown>; data?: unknown };

const WHERE_OPS = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'delete',
  'deleteMany',
  'upsert',
]);
const DATA_OPS = new Set(['create', 'createMany', 'createManyAndReturn', 'upsert']);

function withTenantData(data: unknown, tenantId: string): unknown {
  if (Array.isArray(data)) return data.map((row) => withTenantData(row, tenantId));
  if (data && typeof data === 'object') return { ...(data as object), tenantId };
  return data;
}

/**
 * A Prisma Client whose every query on a tenant-owned model is confined to one tenant: reads and
 * writes get `tenantId` added to their `where`, creates get it in their `data`. The Tenant model
 * itself is confined to the tenant's own row. Forgetting the filter is not possible through it.
 */
export function scoped(db: Db, scope: TenantScope) {
  const { tenantId } = scope;
  return db.$extends({
    name: 'tenant-scope',
    query: {
      $allModels: {
        async $allOperations({ model, operation, args, query }) {
          const a = { ...(args as Args) };
          const key = model === 'Tenant' ? 'id' : 'tenantId';
          if (WHERE_OPS.has(operation)) a.where = { ...(a.where ?? {}), [key]: tenantId };
          if (model !== 'Tenant' && DATA_OPS.has(operation)) {
            if (operation === 'upsert') {
              a.create = withTenantData(a.create, tenantId);
            } else {
              a.data = withTenantData(a.data, tenantId);
            }
          }
          return query(a as typeof args);
        },
      },
    },
  });
}
export type ScopedDb = ReturnType<typeof scoped>;
