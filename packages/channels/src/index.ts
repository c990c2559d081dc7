export { ChannelDeliveryError, type ChannelAdapter, type ChannelTarget, type OutboundMessage, type OutboundTemplate, type SendResult, type SignatureInput } from './adapter';
export { DEV_CHANNEL_SECRETS_KEY, parseSecretsKey, encryptSecret, decryptSecret, encryptCredentials, decryptCredentials } from './secrets';
export { signWebhookBody, verifyWebhookBody, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature';
export { CustomChannelAdapter, CUSTOM_CHANNEL_TYPES, customWebhookBody, webhookUrlOf, type CustomChannelAdapterOptions } from './custom/adapter';
export { CustomWebhookBodySchema, CustomChannelConfigSchema, CustomChannelCredentialsSchema, type CustomWebhookBody } from './custom/payload';
export { LivechatAdapter } from './livechat/adapter';
export { channelAdapters, type ChannelAdapterOptions } from './registry';
export { DEV_FILE_LINK_SECRET, FILE_LINK_TTL_SECONDS, fileLinkSignature, signedFilePath, signedFileUrl, verifyFileLink } from './file-link';
export {
  isWhatsAppAdapter, type WhatsAppAdapter, type InboundEvent, type InboundMedia, type ProviderOutboundTemplate, type ProviderTemplate, type TemplateDefinition, type WebhookRequest,
} from './whatsapp/types';
export { WhatsAppCloudAdapter, hubSignature, CLOUD_API_BASE_URL, CLOUD_API_VERSION, META_MEDIA_HOSTS } from './whatsapp/cloud';
export { WhatsApp360DialogAdapter, DIALOG360_WEBHOOK_HEADER, DIALOG360_CLOUD_BASE_URL, DIALOG360_ONPREMISE_BASE_URL } from './whatsapp/dialog360';
export { WhatsAppTwilioAdapter, twilioSignature, TWILIO_BASE_URL, TWILIO_MEDIA_HOSTS, TWILIO_URL_HEADER } from './whatsapp/twilio';
export { templateStatusOf } from './whatsapp/cloud-format';
export { parseCloudWebhook } from './whatsapp/cloud-webhook';
export { WhatsAppSettingsSchema, WhatsAppSecretsSchema, type WhatsAppSettings, type WhatsAppSecrets } from './whatsapp/settings';
export type { WhatsAppAdapterOptions } from './whatsapp/provider-adapter';
export { DEMO_WHATSAPP_PORT_DEFAULT, DEMO_WHATSAPP_API_KEY_DEFAULT, DEMO_WHATSAPP_WEBHOOK_SECRET_DEFAULT } from './whatsapp/demo-defaults';
export { outboundClient, checkOutboundUrl, outboundUrl, statusLine, type OutboundClient, type OutboundOptions } from './outbound';
export { outboundPolicy, refusedAddressReason, addressAllowed, isOutboundRefused, refusalOf, OutboundRefusedError, type OutboundPolicy } from './outbound-address';
export { readCapped } from './http';
