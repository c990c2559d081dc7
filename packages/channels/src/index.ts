export { ChannelDeliveryError, type ChannelAdapter, type ChannelTarget, type OutboundMessage, type SendResult, type SignatureInput } from './adapter';
export { DEV_CHANNEL_SECRETS_KEY, parseSecretsKey, encryptSecret, decryptSecret, encryptCredentials, decryptCredentials } from './secrets';
export { signWebhookBody, verifyWebhookBody, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature';
export { CustomChannelAdapter, CUSTOM_CHANNEL_TYPES, customWebhookBody, webhookUrlOf, type CustomChannelAdapterOptions } from './custom/adapter';
export { CustomWebhookBodySchema, CustomChannelConfigSchema, CustomChannelCredentialsSchema, type CustomWebhookBody } from './custom/payload';
export { channelAdapters, type ChannelAdapterOptions } from './registry';
export { DEV_FILE_LINK_SECRET, FILE_LINK_TTL_SECONDS, fileLinkSignature, signedFilePath, signedFileUrl, verifyFileLink } from './file-link';
