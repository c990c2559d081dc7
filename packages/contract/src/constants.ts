// Names and constants of the contract without zod: the web app's first load (the agent's screen, and
// @atende/core's permissions) takes these and loads no zod. The modules that
// define the schemas (roles.ts, messages.ts) re-export them.

export const ROLES = ['admin', 'owner', 'manager', 'campaign_manager', 'supervisor', 'agent', 'tenant_admin'] as const;
export type Role = (typeof ROLES)[number];

/** Feature flags named by the spec. */
export const FEATURE_FLAGS = [
  'outbound_campaign',
  'archived_conversations',
  'start_new_conversation',
  'internal_note',
  'canned_responses',
  'contact_journey',
  'conversation_fields',
  'message_reply',
  'whatsapp_template_management',
  'first_steps',
  'qr_code_login',
  'omnichannel_dashboard',
  'bots_interface',
  'session_metrics_report',
  'bots_report',
  'surveys_report',
] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export const DELIVERY_MODES = ['on_demand', 'round_robin', 'fifo'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** "Internal message tag". */
export const INTERNAL_MESSAGE_TAG = 'internal-message';
/** The template that started a conversation could not be sent; the conversation is closed with it. */
export const TEMPLATE_SEND_ERROR_TAG = 'template-send-error';
export const MESSAGE_CONTENT_MAX = 4096;
