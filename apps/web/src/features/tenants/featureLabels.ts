import type { FeatureFlag } from '@atende/contract';

/** English labels (translation keys) of the feature flags. */
export const FEATURE_LABELS: Record<FeatureFlag, string> = {
  outbound_campaign: 'Outbound campaigns',
  archived_conversations: 'Archived conversations',
  start_new_conversation: 'Start new conversation',
  internal_note: 'Internal notes',
  canned_responses: 'Canned responses',
  contact_journey: 'Contact journey',
  conversation_fields: 'Conversation fields',
  message_reply: 'Message reply',
  whatsapp_template_management: 'WhatsApp template management',
  first_steps: 'First steps',
  qr_code_login: 'Login via app (QR code)',
  omnichannel_dashboard: 'Omnichannel dashboard',
  bots_interface: 'Bots',
  session_metrics_report: 'Session metrics report',
  bots_report: 'Bots report',
  surveys_report: 'Surveys report',
};
