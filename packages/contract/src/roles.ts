import { z } from 'zod';

export const ROLES = ['admin', 'owner', 'manager', 'campaign_manager', 'supervisor', 'agent', 'tenant_admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Feature flags named by the spec (000 §3, 002 §6). */
export const FEATURE_FLAGS = [
  'outbound_campaign', 'archived_conversations', 'start_new_conversation', 'internal_note', 'canned_responses',
  'contact_journey', 'conversation_fields', 'message_reply', 'whatsapp_template_management', 'first_steps',
  'qr_code_login', 'omnichannel_dashboard', 'bots_interface', 'session_metrics_report', 'bots_report',
  'surveys_report',
] as const;
export const FeatureFlagSchema = z.enum(FEATURE_FLAGS);
export type FeatureFlag = z.infer<typeof FeatureFlagSchema>;

export const DELIVERY_MODES = ['on_demand', 'round_robin', 'fifo'] as const;
export const DeliveryModeSchema = z.enum(DELIVERY_MODES);
export type DeliveryMode = z.infer<typeof DeliveryModeSchema>;
