import { z } from 'zod';
import { IsoDate, Uuid } from './common';
import { RoleSchema } from './roles';
import { route } from './route';
import { fieldMessage } from './field-messages';

/** Prefix of API tokens: tells them apart from session tokens at a glance (and in the auth hook). */
export const API_TOKEN_PREFIX = 'atd_';

/** An integration's API token ("OAuth token: client_name, client_id"); the secret is shown once. */
export const OAuthTokenSchema = z.object({
  uuid: Uuid,
  client_name: z.string(),
  client_id: z.string(),
  /** The token's first characters, to recognise it. */
  token_prefix: z.string(),
  roles: z.array(RoleSchema),
  created_by: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  created_at: IsoDate,
  last_used_at: IsoDate.nullable(),
  /** Refused from then on: a new token must be created before. */
  expires_at: IsoDate,
});
export type OAuthToken = z.infer<typeof OAuthTokenSchema>;

export const listOAuthTokens = route({
  method: 'GET',
  path: '/api/v1/oauth/tokens',
  tags: ['integrations'],
  summary: "The workspace's live API tokens, filtered by client_name or client_id (admin).",
  query: z.object({ client_name: z.string().trim().max(80).optional(), client_id: z.string().trim().max(64).optional() }),
  response: z.object({
    data: z.array(OAuthTokenSchema),
    /** The install's token lifetimes (days): the default for a new token and the longest allowed. */
    lifetime: z.object({ default_days: z.number().int(), max_days: z.number().int() }),
  }),
});
export const createOAuthToken = route({
  method: 'POST',
  path: '/api/v1/oauth/tokens',
  tags: ['integrations'],
  status: 201,
  summary:
    'Creates an API token acting with the caller\'s current roles until it expires, is revoked or the caller changes their password (admin). `access_token` is shown only in this answer: send it as "Authorization: Bearer".',
  body: z.object({
    client_name: z
      .string()
      .trim()
      .min(1, fieldMessage('client_name_required'))
      .max(80, fieldMessage('field_too_long', { max: 80 })),
    /** Lifetime in days: the install's default when absent, at most its maximum (400 above it). */
    expires_in_days: z
      .number()
      .int(fieldMessage('days_whole'))
      .min(1, fieldMessage('days_too_few'))
      .max(3650, fieldMessage('days_too_many'))
      .optional(),
  }),
  response: z.object({ data: OAuthTokenSchema, access_token: z.string() }),
  errors: ['api_token_creates_token', 'api_token_lifetime_too_long'],
});
export const deleteOAuthToken = route({
  method: 'DELETE',
  path: '/api/v1/oauth/tokens/:id',
  tags: ['integrations'],
  summary: 'Revokes an API token at once (admin).',
  params: z.object({ id: Uuid }),
  response: z.object({ data: z.object({ uuid: Uuid }) }),
  errors: ['api_token_not_found'],
});

/** Integrations: droz and Zapier each hold an API token (write-only), voice-phone a URL. */
const TokenIntegration = z.object({ enabled: z.boolean(), token_set: z.boolean() });
export const IntegrationsSchema = z.object({
  droz: TokenIntegration,
  zapier: TokenIntegration,
  voice_phone: z.object({ enabled: z.boolean(), url: z.string().nullable() }),
});
export type Integrations = z.infer<typeof IntegrationsSchema>;

const tokenUpdate = z.object({
  enabled: z.boolean().optional(),
  /** A new token replaces the stored one; '' removes it. */
  token: z.string().trim().max(2000).optional(),
});
export const IntegrationsUpdateBody = z.strictObject({
  droz: tokenUpdate.optional(),
  zapier: tokenUpdate.optional(),
  voice_phone: z.object({ enabled: z.boolean().optional(), url: z.string().trim().max(2000).nullable().optional() }).optional(),
});

export const getIntegrations = route({
  method: 'GET',
  path: '/api/v1/workspaces/me/integrations',
  tags: ['integrations'],
  summary: "The workspace's integrations; tokens are never returned (admin).",
  response: z.object({ data: IntegrationsSchema }),
});
export const updateIntegrations = route({
  method: 'PUT',
  path: '/api/v1/workspaces/me/integrations',
  tags: ['integrations'],
  summary: 'Turns integrations on or off and sets their token or URL (admin). An integration cannot be on without its token or URL.',
  body: IntegrationsUpdateBody,
  response: z.object({ data: IntegrationsSchema }),
  errors: [
    'integration_token_required',
    'url_invalid',
    'url_https_required',
    'integration_url_domain',
    'outbound_address_not_allowed',
    'integration_url_required',
  ],
});

/** The voice-phone embed of the agent panel header, for any signed-in user. */
export const VoicePhoneSchema = z.object({
  /** On, with a URL on the provider's domains: the header shows the phone (350x555). */
  enabled: z.boolean(),
  url: z.string().nullable(),
});
export type VoicePhone = z.infer<typeof VoicePhoneSchema>;
export const getVoicePhone = route({
  method: 'GET',
  path: '/api/v1/workspaces/me/voice_phone',
  tags: ['integrations'],
  summary:
    "The voice-phone embed of the agent panel: enabled only when the integration is on and its URL is on the provider's domains (VOICE_PHONE_DOMAINS).",
  response: z.object({ data: VoicePhoneSchema }),
});
