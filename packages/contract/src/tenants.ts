import { z } from 'zod';
import { dataOf, Uuid, UuidParam } from './common';
import { DeliveryModeSchema, FEATURE_FLAGS, type FeatureFlag } from './roles';
import { route } from './route';
import { NewPasswordSchema, UserEmailSchema, UserNameSchema } from './users';
import { fieldMessage } from './field-messages';

/** Tenant config: `features` holds the feature flags; `flags` other switches. */
export const TenantConfigSchema = z.object({
  features: z.partialRecord(z.enum(FEATURE_FLAGS), z.boolean()).default({}),
  flags: z.record(z.string().max(64), z.union([z.boolean(), z.string().max(2000), z.number()])).default({}),
  default_country_code: z
    .string()
    .regex(/^\+\d{1,4}$/, fieldMessage('country_code_invalid'))
    .default('+55'),
  agent: z.object({ max_slots: z.number().int().min(1).max(100).default(10) }).default({ max_slots: 10 }),
  first_steps_completed: z.boolean().default(false),
});
export type TenantConfig = z.infer<typeof TenantConfigSchema>;

export const TenantSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  config: TenantConfigSchema,
});
export type Tenant = z.infer<typeof TenantSchema>;

export const getMyTenant = route({
  method: 'GET',
  path: '/api/v1/tenants/me',
  tags: ['tenants'],
  summary: "The caller's tenant with its feature flags and settings; the admin and agent apps load it first.",
  response: dataOf(TenantSchema),
});
export const listTenants = route({
  method: 'GET',
  path: '/api/v1/tenants',
  tags: ['tenants'],
  summary: 'Every tenant (tenant_admin).',
  response: z.object({ data: z.array(TenantSchema) }),
});
export const getTenant = route({
  method: 'GET',
  path: '/api/v1/tenants/:id',
  tags: ['tenants'],
  summary: 'One tenant: any for tenant_admin, otherwise only your own.',
  params: UuidParam,
  response: dataOf(TenantSchema),
  errors: ['tenant_not_found'],
});
export const configureTenant = route({
  method: 'POST',
  path: '/api/v1/tenants/:id/configure',
  tags: ['tenants'],
  summary: "Changes a tenant's name, features, flags and settings (tenant_admin, or admin/owner of that tenant).",
  params: UuidParam,
  body: z.strictObject({
    name: z.string().trim().min(1, fieldMessage('required')).max(120).optional(),
    features: z.partialRecord(z.enum(FEATURE_FLAGS), z.boolean()).optional(),
    flags: TenantConfigSchema.shape.flags.unwrap().optional(),
    default_country_code: TenantConfigSchema.shape.default_country_code.unwrap().optional(),
    agent: z.strictObject({ max_slots: z.number().int().min(1).max(100) }).optional(),
    first_steps_completed: z.boolean().optional(),
  }),
  response: dataOf(TenantSchema),
  errors: ['tenant_not_found', 'plan_locked'],
});

/** The tenants screen creates a customer with its first admin (tenant_admin only). */
export const createTenant = route({
  method: 'POST',
  path: '/api/v1/tenants',
  tags: ['tenants'],
  summary:
    'Creates a customer tenant with its workspace, a first sector and pause, and its first admin (tenant_admin); the plan (features, agent slots) is set here.',
  body: z.strictObject({
    name: z.string().trim().min(1, fieldMessage('required')).max(120),
    default_country_code: TenantConfigSchema.shape.default_country_code.unwrap().optional(),
    agent: z.strictObject({ max_slots: z.number().int().min(1).max(100) }).optional(),
    features: z.partialRecord(z.enum(FEATURE_FLAGS), z.boolean()).optional(),
    admin: z.strictObject({
      username: UserNameSchema,
      email: UserEmailSchema,
      password: z
        .string({ message: fieldMessage('password_required') })
        .min(1, fieldMessage('password_required'))
        .pipe(NewPasswordSchema),
    }),
  }),
  response: dataOf(TenantSchema),
  status: 201,
});

export const WorkspaceSchema = z.object({
  uuid: Uuid,
  name: z.string(),
  tenant: z.object({ uuid: Uuid, name: z.string() }),
  max_conversation_per_user: z.number().int(),
  conversation_delivery_mode: DeliveryModeSchema,
  archived_conversation_behavior_on_new_messages: z.enum(['unarchive', 'keep_archived']),
  integrations: z.record(z.string(), z.unknown()),
});
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const getMyWorkspace = route({
  method: 'GET',
  path: '/api/v1/workspaces/me',
  tags: ['workspaces'],
  summary: "The caller's workspace.",
  response: dataOf(WorkspaceSchema),
});
export const updateMyWorkspace = route({
  method: 'PATCH',
  path: '/api/v1/workspaces/me',
  tags: ['workspaces'],
  summary: "Changes the caller's workspace (manager and above).",
  body: z.strictObject({
    name: z.string().trim().min(1, fieldMessage('required')).max(120).optional(),
    max_conversation_per_user: z
      .number()
      .int()
      .min(1, fieldMessage('field_too_small', { min: 1 }))
      .max(100, fieldMessage('field_too_big', { max: 100 }))
      .optional(),
    conversation_delivery_mode: DeliveryModeSchema.optional(),
    archived_conversation_behavior_on_new_messages: z.enum(['unarchive', 'keep_archived']).optional(),
    integrations: z.record(z.string().max(64), z.unknown()).optional(),
  }),
  response: dataOf(WorkspaceSchema),
  errors: ['integrations_admin_only', 'tenant_integration_managed'],
});

export const isFeatureOn = (tenant: Pick<Tenant, 'config'>, flag: FeatureFlag): boolean => tenant.config.features[flag] === true;
