import {
  HASH_CHANNEL_TYPE,
  isRequiredChannelSetting,
  missingChannelSettings,
  type ChannelAvailability,
  type ChannelType,
} from '@atende/contract';
import { phrase } from '../../i18n/phrase';

/** What a channel type is called on screen (never its raw type). */
export const CHANNEL_TYPE_LABEL: Partial<Record<ChannelType, string>> = {
  livechat: phrase('Live chat'),
  custom: phrase('API channel'),
  droz: phrase('API channel'),
  API: phrase('API channel'),
  whatsapp: 'WhatsApp',
  whatsapp_cloud: phrase('WhatsApp Cloud API'),
  whatsapp_360dialog: 'WhatsApp (360dialog)',
  whatsapp_twilio: 'WhatsApp (Twilio)',
  whatsapp_web: 'WhatsApp Web',
  whatsapp_lion: 'WhatsApp (Lion)',
  telegram: 'Telegram',
  sms: 'SMS',
  email: phrase('E-mail'),
  instagram: 'Instagram',
  messenger: 'Messenger',
};

export function channelTypeLabel(type: string): string {
  if (HASH_CHANNEL_TYPE.test(type)) return phrase('WhatsApp Business API');
  return CHANNEL_TYPE_LABEL[type as ChannelType] ?? type;
}

/** Availability: its label, colour and what it means (api channels/availability.ts). */
export const AVAILABILITY: Record<ChannelAvailability, { label: string; color: string; help: string }> = {
  offline: { label: phrase('Offline'), color: 'gray', help: phrase('The channel is disabled: nothing comes in or goes out') },
  paused: { label: phrase('Paused'), color: 'yellow', help: phrase('Every agent who serves this channel is on a pause') },
  active: { label: phrase('Active'), color: 'blue', help: phrase('Messages come in, but no agent who serves this channel is signed in') },
  online: { label: phrase('Online'), color: 'green', help: phrase('An agent who serves this channel is online') },
};

/** One field of a channel type's creation form: a setting (shown back later) or a secret (never). */
export interface ChannelField {
  key: string;
  label: string;
  secret?: boolean;
  description?: string;
  placeholder?: string;
  /** An on/off setting (sent as 'true' or 'false'). */
  switch?: boolean;
  /** A switch that starts on (the setting's default is on). */
  defaultOn?: boolean;
  /** One of these values (a select); '' sends nothing. */
  options?: { value: string; label: string }[];
  /** The heading of the group of fields this one opens or belongs to; fields before the first heading have none. */
  section?: string;
}

/** A switch's value as the form holds it: what was chosen, or the field's default. */
export const switchOn = (field: ChannelField, values: Record<string, string>): boolean =>
  (values[field.key] ?? (field.defaultOn ? 'true' : 'false')) === 'true';

/**
 * A type the creation form offers, with only what that type needs. The facts the api shares (which
 * settings are required, a login setup screen, how inbound arrives) are the type's row in the
 * contract's CHANNEL_TYPE_FACTS; this adds only the screen's own words.
 */
export interface ChannelForm {
  type: ChannelType;
  fields: ChannelField[];
  /** Said after creation, next to the address to give the provider. */
  after?: string;
  /** Said in the channel's settings next to that address, when `after` speaks of a value shown only at creation. */
  addressHelp?: string;
  /** What the value answered once at creation is (the custom channel's token, e-mail's forwarding address). */
  shownOnceLabel?: string;
}

const baseUrl = (placeholder: string): ChannelField => ({
  key: 'base_url',
  label: phrase('API address'),
  description: phrase("Leave empty for the provider's own address"),
  placeholder,
});

export const CHANNEL_FORMS: ChannelForm[] = [
  { type: 'livechat', fields: [], after: phrase('Set its appearance and copy the embed code on the next screen.') },
  {
    type: 'custom',
    fields: [
      {
        key: 'webhook_url',
        label: phrase('Delivery address'),
        description: phrase('Where agent messages are posted (optional)'),
        placeholder: 'https://example.com/atende',
      },
    ],
    after: phrase('Your system posts contact messages to this address with the token below. The token is shown only now.'),
    addressHelp: phrase('Your system posts contact messages to this address with the token given when the channel was created.'),
  },
  {
    type: 'whatsapp_cloud',
    fields: [
      { key: 'phone_number_id', label: phrase('Phone number ID') },
      { key: 'waba_id', label: phrase('WhatsApp Business account ID') },
      { key: 'access_token', label: phrase('Access token'), secret: true },
      { key: 'app_secret', label: phrase('App secret'), secret: true },
      {
        key: 'verify_token',
        label: phrase('Verify token'),
        secret: true,
        description: phrase('Any text of yours: Meta sends it back when the webhook is set'),
      },
      baseUrl('https://graph.facebook.com'),
    ],
    after: phrase('Give this address and your verify token to Meta as the webhook of the app.'),
  },
  {
    type: 'whatsapp_360dialog',
    fields: [{ key: 'api_key', label: phrase('API key'), secret: true }, baseUrl('https://waba-v2.360dialog.io')],
    after: phrase(
      'Set this address as the webhook in 360dialog, with the header X-Atende-Webhook-Token holding the secret below. The secret is shown only now.',
    ),
    addressHelp: phrase(
      'The webhook address in 360dialog, with the header X-Atende-Webhook-Token holding the secret given when the channel was created.',
    ),
  },
  {
    type: 'whatsapp_twilio',
    fields: [
      { key: 'account_sid', label: phrase('Account SID') },
      { key: 'auth_token', label: phrase('Auth token'), secret: true },
      {
        key: 'from_number',
        label: phrase('Sender number'),
        description: phrase('Or a messaging service SID below'),
        placeholder: '+5511999990000',
      },
      { key: 'messaging_service_sid', label: phrase('Messaging service SID') },
      baseUrl('https://api.twilio.com'),
    ],
    after: phrase("Set this address as the sender's incoming message and status callback URL in Twilio."),
  },
  {
    type: 'whatsapp_web',
    fields: [
      {
        key: 'base_url',
        label: phrase('Bridge address'),
        description: phrase('Your Evolution API server, which keeps the phone linked'),
        placeholder: 'https://evolution.example.com',
      },
      { key: 'instance', label: phrase('Instance'), description: phrase('The name of the bridge instance the phone is linked to') },
      {
        key: 'api_key',
        label: phrase('API key'),
        secret: true,
        description: phrase("The instance's token, or the server's global key: the instance's webhook is set when you create the channel"),
      },
    ],
    after: phrase(
      "The bridge already sends the instance's messages to this address. Link the phone by scanning the QR code in the channel's settings.",
    ),
  },
  {
    type: 'telegram',
    fields: [
      {
        key: 'bot_token',
        label: phrase('Bot token'),
        secret: true,
        description: phrase('From @BotFather: the bot is checked and its webhook set when you create the channel'),
      },
      baseUrl('https://api.telegram.org'),
    ],
    after: phrase('The bot already sends its updates to this address: nothing else to set up.'),
  },
  {
    type: 'sms',
    fields: [
      { key: 'account_sid', label: phrase('Account SID') },
      { key: 'auth_token', label: phrase('Auth token'), secret: true },
      {
        key: 'from_number',
        label: phrase('Sender number'),
        description: phrase('Or a messaging service SID below'),
        placeholder: '+5511999990000',
      },
      { key: 'messaging_service_sid', label: phrase('Messaging service SID') },
      {
        key: 'mms_enabled',
        label: phrase('MMS (pictures and files)'),
        switch: true,
        description: phrase('Off: the channel sends text only'),
      },
      baseUrl('https://api.twilio.com'),
    ],
    after: phrase(
      "Set this address as the number's incoming message webhook (HTTP POST) in Twilio; delivery reports come to it on their own.",
    ),
  },
  ...(['messenger', 'instagram'] as const).map((type) => ({
    type,
    fields: [
      {
        key: 'page_id',
        label: phrase('Facebook page ID'),
        description: type === 'instagram' ? phrase('The page the Instagram account is connected to') : undefined,
      },
      { key: 'access_token', label: phrase('Page access token'), secret: true },
      { key: 'app_secret', label: phrase('App secret'), secret: true },
      {
        key: 'verify_token',
        label: phrase('Verify token'),
        secret: true,
        description: phrase('Any text of yours: Meta sends it back when the webhook is set'),
      },
      {
        key: 'human_agent_tag',
        label: phrase('Answer for 7 days (Human Agent tag)'),
        switch: true,
        description: phrase(
          'Only if Meta granted your app the Human Agent permission; otherwise replies end 24 hours after the contact wrote',
        ),
      },
      baseUrl('https://graph.facebook.com'),
    ],
    after: phrase(
      'Give this address and your verify token to Meta as the webhook of the app, subscribed to messages, message_deliveries and message_reads.',
    ),
  })),
  {
    type: 'email',
    fields: [
      { key: 'from_address', label: phrase('E-mail address'), placeholder: 'support@example.com' },
      { key: 'smtp_host', label: phrase('SMTP server'), placeholder: 'smtp.example.com' },
      { key: 'smtp_port', label: phrase('SMTP port'), placeholder: '587', description: phrase('587 with STARTTLS, or 465 with TLS') },
      { key: 'smtp_secure', label: phrase('TLS from the start'), switch: true, description: phrase('On for port 465') },
      { key: 'username', label: phrase('SMTP user'), description: phrase('Leave empty to use the e-mail address') },
      { key: 'password', label: phrase('SMTP password'), secret: true },
      {
        key: 'oauth_provider',
        label: phrase('Sign in with'),
        description: phrase('Google and Microsoft mailboxes without a password: an OAuth refresh token signs in to SMTP and IMAP'),
        options: [
          { value: '', label: phrase('Password') },
          { value: 'google', label: 'Google' },
          { value: 'microsoft', label: 'Microsoft' },
        ],
      },
      { key: 'refresh_token', label: phrase('OAuth refresh token'), secret: true },
      {
        key: 'imap_host',
        label: phrase('IMAP server'),
        placeholder: 'imap.example.com',
        description: phrase('Optional: new mail is read from the mailbox itself, no forwarding needed'),
        section: phrase('Mailbox (IMAP)'),
      },
      { key: 'imap_port', label: phrase('IMAP port'), placeholder: '993', description: phrase('993 with TLS, or 143 with STARTTLS') },
      {
        key: 'imap_secure',
        label: phrase('IMAP over TLS'),
        switch: true,
        defaultOn: true,
        description: phrase('On for port 993'),
      },
      { key: 'imap_username', label: phrase('IMAP user'), description: phrase('Leave empty to use the SMTP user') },
      { key: 'imap_mailbox', label: phrase('Folder read'), placeholder: 'INBOX' },
      {
        key: 'sent_mailbox',
        label: phrase('Sent folder'),
        placeholder: 'Sent',
        description: phrase('Optional: a copy of each reply is kept in this folder'),
      },
    ],
    after: phrase(
      'Forward the mailbox’s incoming mail to the forwarding address below (also shown in the channel’s settings). Replies are sent through your SMTP server.',
    ),
    shownOnceLabel: phrase('Forwarding address'),
  },
];

/** The body of POST /api/v1/channels: filled fields only, trimmed. */
export function channelBody(form: ChannelForm, name: string, values: Record<string, string>): Record<string, string> {
  const body: Record<string, string> = { name: name.trim(), type: form.type };
  for (const field of form.fields) {
    const value = values[field.key]?.trim();
    if (field.switch) body[field.key] = switchOn(field, values) ? 'true' : 'false';
    else if (value) body[field.key] = value;
  }
  return body;
}

/** What is said when none of a group of alternative settings is given, by the group's first setting. */
const ALTERNATIVES_REQUIRED: Record<string, string> = {
  from_number: phrase('A sender number or a messaging service SID is required'),
  password: phrase('A password or an OAuth refresh token is required'),
};

/** Whether the form marks the field required: the api's rule (the contract's CHANNEL_REQUIRED_SETTINGS). */
export const isRequiredField = (form: ChannelForm, field: ChannelField): boolean => isRequiredChannelSetting(form.type, field.key);

/**
 * Field errors before sending: the name, and each setting the api would refuse the channel without
 * (the same table); a missing group of alternatives is said on its first field.
 */
export function channelFormErrors(form: ChannelForm, name: string, values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!name.trim()) errors.name = phrase('Required');
  const shown = new Set(form.fields.map((f) => f.key));
  for (const anyOf of missingChannelSettings(form.type, (key) => Boolean(values[key]?.trim()))) {
    // Settings the form does not ask for (360dialog's webhook secret) are made by the api.
    if (!shown.has(anyOf[0]!)) continue;
    errors[anyOf[0]!] = anyOf.length > 1 ? (ALTERNATIVES_REQUIRED[anyOf[0]!] ?? phrase('Required')) : phrase('Required');
  }
  return errors;
}
