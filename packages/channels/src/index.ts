export {
  ChannelDeliveryError,
  type ChannelAdapter,
  type ChannelTarget,
  type OutboundMessage,
  type OutboundTemplate,
  type SendResult,
  type SignatureInput,
} from './adapter';
export { DEV_CHANNEL_SECRETS_KEY, parseSecretsKey, encryptSecret, decryptSecret, encryptCredentials, decryptCredentials } from './secrets';
export { signWebhookBody, verifyWebhookBody, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature';
export {
  CustomChannelAdapter,
  CUSTOM_CHANNEL_TYPES,
  customWebhookBody,
  webhookUrlOf,
  type CustomChannelAdapterOptions,
} from './custom/adapter';
export {
  CustomWebhookBodySchema,
  CustomChannelConfigSchema,
  CustomChannelCredentialsSchema,
  type CustomWebhookBody,
} from './custom/payload';
export { LivechatAdapter } from './livechat/adapter';
export { channelAdapters, channelDefinition, CHANNEL_DEFINITIONS, type ChannelAdapterOptions } from './registry';
export type { ChannelCreation, ChannelDefinition, ChannelValues } from './definition';
export { ProviderAdapter, type ProviderAdapterOptions } from './provider-base';
export { DEV_FILE_LINK_SECRET, FILE_LINK_TTL_SECONDS, fileLinkSignature, signedFilePath, signedFileUrl, verifyFileLink } from './file-link';
export {
  isProviderAdapter,
  type ProviderChannelAdapter,
  type InboundEvent,
  type InboundMedia,
  type InboundSender,
  type WebhookRegistration,
  type WebhookRequest,
} from './provider';
export {
  isWhatsAppAdapter,
  type WhatsAppAdapter,
  type ProviderOutboundTemplate,
  type ProviderTemplate,
  type TemplateDefinition,
} from './whatsapp/types';
export { TelegramAdapter, TELEGRAM_SECRET_HEADER } from './telegram/adapter';
export { TELEGRAM_BASE_URL } from './telegram/settings';
export { MessengerAdapter, InstagramAdapter, metaMessagingFailure } from './meta/adapter';
export { GRAPH_BASE_URL, GRAPH_VERSION, HUB_SIGNATURE_HEADER, hubChallenge, verifyHubSignature } from './meta/graph';
export {
  MetaLoginClient,
  MetaLoginError,
  metaDialogUrl,
  META_LOGIN_SCOPES,
  type MetaLoginConfig,
  type MetaLoginKind,
  type MetaPage,
} from './meta/login';
export { WhatsAppCloudAdapter, hubSignature, CLOUD_API_BASE_URL, CLOUD_API_VERSION, META_MEDIA_HOSTS } from './whatsapp/cloud';
export {
  WhatsApp360DialogAdapter,
  DIALOG360_WEBHOOK_HEADER,
  DIALOG360_CLOUD_BASE_URL,
  DIALOG360_ONPREMISE_BASE_URL,
} from './whatsapp/dialog360';
export { WhatsAppTwilioAdapter } from './whatsapp/twilio';
export { twilioSignature, TWILIO_BASE_URL, TWILIO_MEDIA_HOSTS, TWILIO_URL_HEADER } from './twilio/messaging';
export { SmsTwilioAdapter } from './sms/adapter';
export { WhatsAppWebAdapter, WHATSAPP_WEB_EVENTS } from './whatsapp-web/adapter';
export { templateStatusOf } from './whatsapp/cloud-format';
export { parseCloudWebhook } from './whatsapp/cloud-webhook';
export { WhatsAppSettingsSchema, WhatsAppSecretsSchema, type WhatsAppSettings, type WhatsAppSecrets } from './whatsapp/settings';
export type { WhatsAppAdapterOptions } from './whatsapp/provider-adapter';
export { outboundClient, checkOutboundUrl, outboundUrl, statusLine, type OutboundClient, type OutboundOptions } from './outbound';
export {
  outboundPolicy,
  refusedAddressReason,
  addressAllowed,
  isOutboundRefused,
  refusalOf,
  OutboundRefusedError,
  type OutboundPolicy,
} from './outbound-address';
export { readCapped, sameSecret } from './http';
export { EmailAdapter, EMAIL_SECRET_HEADER, RFC822_BASE64, type EmailAdapterOptions } from './email/adapter';
export { parseEmail, EMAIL_MAX_BYTES } from './email/inbound';
export { EmailSettingsSchema, EmailSecretsSchema, type EmailOAuthProvider } from './email/settings';
export { connectImap, imapFailureReason, type ImapSession } from './email/imap';
export { EmailAccessTokens, emailOAuthClients, type EmailOAuthClients } from './email/oauth';
export { startInboundSmtp, forwardingAddress, type InboundSmtpListener, type InboundSmtpOptions } from './email/listener';
export { resolveAllowedHost } from './outbound-address';
export { providerIdentity, metaEntryIdentity, type IdentitySource, type ProviderIdentity } from './provider-identity';
