import { TenantConfigSchema, type TenantConfig } from '@atende/contract';

/** A tenant's stored configuration with the defaults filled in; a config that no longer parses counts as the defaults. */
export function tenantConfigOf(raw: unknown): TenantConfig {
  const parsed = TenantConfigSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : TenantConfigSchema.parse({});
}
