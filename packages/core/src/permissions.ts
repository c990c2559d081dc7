import { ROLES, type FeatureFlag, type Role } from '@atende/contract';

/**
 * The role matrix, written down once: what each capability is, which roles may use it and
 * which tenant feature it needs. The api's binder enforces it on every route (a route names one
 * capability, never a list of roles), the web app reads it for its guards and the buttons it shows,
 * and apps/api/src/roles.test.ts prints it and checks it against the running api.
 *
 * The sets are explicit (no coverage arithmetic at the call site) so a reader sees who passes.
 * They follow coverage: admin and owner do everything; manager covers
 * supervisor and agent; supervisor covers agent. Where the product's rules disagree we took the
 * stricter reading:
 * - campaigns (and template management, the campaigns section): campaign_manager, admin and owner,
 *   not manager. One rule lets manager cover campaign_manager, but the campaigns section is given
 *   to campaign_manager and admin only.
 *    campaign_manager may add or delete campaigns ("users with neither cannot").
 *  - the contact book: agents (and the roles covering agent) read and edit it in the workstation and
 *    the admin area; campaign_manager only reads it and adds a contact from the do-not-disturb screen
 * (GET/POST /contacts); tenant_admin, whose section is tenants only, does neither.
 */
export interface Permission {
  /** Every role that passes (a user passes when any of their roles is listed). */
  roles: readonly Role[];
  /** The tenant feature the capability needs on. */
  flag?: FeatureFlag;
  /** A privileged write: the caller's roles are read again from the database. */
  fresh?: boolean;
  /** Where the rule comes from, for the printed matrix. */
  spec: string;
}

const EVERYONE: readonly Role[] = ROLES;
const ADMIN: readonly Role[] = ['admin', 'owner'];
const MANAGER: readonly Role[] = ['manager', ...ADMIN];
const SUPERVISOR: readonly Role[] = ['supervisor', ...MANAGER];
const AGENT: readonly Role[] = ['agent', ...SUPERVISOR];
/** Stricter reading (see above): manager does not reach campaigns. */
const CAMPAIGNS: readonly Role[] = ['campaign_manager', ...ADMIN];

export const PERMISSIONS = {
  /** Routes open without a session (login, livechat visitors, signed file links, provider webhooks). */
  public: { roles: EVERYONE, spec: 'no session' },
  /** Any signed-in user; what they then see is narrowed by the service (their conversations, their tenant). */
  signed_in: { roles: EVERYONE, spec: 'spec 000 §7' },
  /** The agent panel's own calls (offered conversations, accepting one). */
  workstation: { roles: AGENT, spec: 'spec 000 §2, §6 /app' },
  'conversations.start': { roles: AGENT, flag: 'start_new_conversation', spec: 'spec 000 §7' },
  'contacts.read': { roles: [...AGENT, 'campaign_manager'], spec: 'spec 000 §7, 001 §7 (DND lookup)' },
  'contacts.create': { roles: [...AGENT, 'campaign_manager'], spec: 'spec 000 §7, 001 §7 (DND link modal)' },
  'contacts.update': { roles: AGENT, spec: 'spec 000 §2 customer details' },
  'contacts.delete': { roles: SUPERVISOR, spec: 'spec 002 §7 admin contacts' },
  'users.update': { roles: EVERYONE, fresh: true, spec: 'spec 000 §7 (own password; force offline checked per target)' },
  'users.list': { roles: SUPERVISOR, spec: 'spec 000 §7' },
  /** Checked by the service on PATCH users/:id {state}: only over roles the caller covers, and an owner only by an owner. */
  'users.force_offline': { roles: SUPERVISOR, spec: 'spec 000 §6 "may end an agent session"' },
  'users.manage': { roles: ADMIN, fresh: true, spec: 'spec 002 §6' },
  qr_login: { roles: EVERYONE, flag: 'qr_code_login', spec: 'spec 000 §2' },
  /** The admin area itself; its sections below may narrow it. */
  admin_area: { roles: SUPERVISOR, spec: 'spec 002 §2, §6' },
  dashboard: { roles: SUPERVISOR, spec: 'spec 002 §2' },
  'dashboard.omnichannel': { roles: SUPERVISOR, flag: 'omnichannel_dashboard', spec: 'spec 002 §2' },
  reports: { roles: SUPERVISOR, spec: 'spec 002 §2' },
  'reports.session_metrics': { roles: SUPERVISOR, flag: 'session_metrics_report', spec: 'spec 002 §2' },
  'reports.bots': { roles: SUPERVISOR, flag: 'bots_report', spec: 'spec 002 §2' },
  'reports.surveys': { roles: SUPERVISOR, flag: 'surveys_report', spec: 'spec 002 §2' },
  'reports.login_history': { roles: MANAGER, spec: 'spec 002 §6' },
  campaigns: { roles: CAMPAIGNS, flag: 'outbound_campaign', spec: 'spec 001 §6, 002 §6 (stricter reading)' },
  'templates.manage': { roles: CAMPAIGNS, flag: 'whatsapp_template_management', spec: 'spec 002 §2 campaigns/whatsapp-templates' },
  tenants: { roles: ['tenant_admin', ...ADMIN], spec: 'spec 002 §6 (others see only their own tenant)' },
  'tenants.configure': { roles: ['tenant_admin', ...ADMIN], fresh: true, spec: 'spec 002 §7' },
  // Settings: supervisors read every screen shown to them; admins write.
  'settings.pauses': { roles: SUPERVISOR, spec: 'spec 002 §2 settings/pauses' },
  'settings.canned_responses': { roles: SUPERVISOR, flag: 'canned_responses', spec: 'spec 002 §2 settings/canned-responses' },
  'canned_responses.use': { roles: EVERYONE, flag: 'canned_responses', spec: 'spec 000 §7' },
  'settings.opening_hours.read': { roles: SUPERVISOR, spec: 'spec 002 §2 settings/opening-hours' },
  'settings.opening_hours.write': { roles: MANAGER, spec: 'spec 002 §2' },
  'settings.workspace.write': { roles: MANAGER, spec: 'spec 002 §7 PATCH workspaces/me' },
  'settings.automations.read': { roles: SUPERVISOR, spec: 'spec 002 §2 settings/automations' },
  'settings.automations.write': { roles: ADMIN, spec: 'spec 002 §6' },
  'settings.menus.read': { roles: SUPERVISOR, spec: 'spec 002 §2 settings/automated-menu' },
  'settings.menus.write': { roles: ADMIN, spec: 'spec 002 §6' },
  'settings.surveys.read': { roles: SUPERVISOR, spec: 'spec 002 §2 settings/surveys' },
  'settings.surveys.write': { roles: ADMIN, spec: 'spec 002 §6' },
  'settings.sectors.write': { roles: ADMIN, spec: 'spec 002 §6' },
  'settings.channels.write': { roles: ADMIN, spec: 'spec 002 §6' },
  'settings.conversation_reasons': { roles: ADMIN, spec: 'spec 002 §6 conversation-reasons' },
  /** Read by supervisors too: the channel screen (settings/workspace/channels/:id) lists bots as entry points. */
  'bots.read': {
    roles: [...SUPERVISOR, 'campaign_manager'],
    flag: 'bots_interface',
    spec: 'spec 002 §2 workspace/channels/:id, 001 §5 reply actions',
  },
  'bots.manage': { roles: ADMIN, flag: 'bots_interface', spec: 'spec 002 §6 bots' },
  integrations: { roles: ADMIN, spec: 'spec 002 §6 integrations' },
  'integrations.tokens.write': { roles: ADMIN, fresh: true, spec: 'spec 002 §6 integrations' },
  'conversation_fields.use': { roles: EVERYONE, flag: 'conversation_fields', spec: 'spec 000 §7' },
  'conversation_fields.define': { roles: ADMIN, flag: 'conversation_fields', spec: 'spec 002 §2 settings/conversation-fields' },
} as const satisfies Record<string, Permission>;

export type PermissionName = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as PermissionName[];

/** Whether a user holding `roles` passes the role part of `permission` (the flag is the tenant's). */
export function allows(roles: readonly Role[], permission: PermissionName): boolean {
  const allowed: readonly Role[] = PERMISSIONS[permission].roles;
  return roles.some((role) => allowed.includes(role));
}

/** Whether the capability is usable: role and, when it has one, the tenant's feature flag. */
export function mayUse(roles: readonly Role[], features: Partial<Record<FeatureFlag, boolean>>, permission: PermissionName): boolean {
  const p: Permission = PERMISSIONS[permission];
  return allows(roles, permission) && (p.flag === undefined || features[p.flag] === true);
}
