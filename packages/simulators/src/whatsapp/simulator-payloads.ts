import { randomBytes } from 'node:crypto';
import { hubSignature, DIALOG360_WEBHOOK_HEADER, twilioSignature } from '@atende/channels';
import { smsSegments } from '@atende/contract';

/**
 * What the WhatsApp provider simulator (simulator.ts) answers and posts, in each provider's own
 * shapes: error bodies, webhook bodies, and the headers that sign them as the provider signs them.
 */

export type SimulatedProvider = 'cloud' | '360dialog' | 'twilio' | 'twilio_sms';
/** Error body families: Meta's Graph API, the on-premise API, 360dialog's own (auth, templates) and Twilio's. */
export type ErrorDialect = 'graph' | 'onpremise' | 'd360' | 'twilio';
export type ErrorKind =
  'unauthorized' | 'invalid' | 'not_found' | 'duplicate' | 'rate_limited' | 'unknown_recipient' | 'server' | 'too_long';

export const simulatedId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

/**
 * Each kind of error as each API family writes it: HTTP status, Graph [code, subcode, message],
 * on-premise [code, title] and Twilio [code, message].
 */
const ERRORS: Record<
  ErrorKind,
  { status: number; graph: [number, number | undefined, string]; onpremise: [number, string]; twilio: [number, string] }
> = {
  unauthorized: {
    status: 401,
    graph: [190, 463, 'Invalid OAuth access token - Cannot parse access token'],
    onpremise: [1005, 'Access denied'],
    twilio: [20003, 'Authenticate'],
  },
  invalid: {
    status: 400,
    graph: [100, undefined, '(#100) Invalid parameter'],
    onpremise: [1009, 'Parameter value is not valid'],
    twilio: [21211, "Invalid 'To' Phone Number"],
  },
  not_found: {
    status: 404,
    graph: [100, 33, 'Unsupported request - method type: get'],
    onpremise: [1006, 'Resource not found'],
    twilio: [20404, 'The requested resource was not found'],
  },
  duplicate: {
    status: 400,
    graph: [100, 2388024, 'Content in this language already exists'],
    onpremise: [1004, 'Resource already exists'],
    twilio: [20409, 'Conflict'],
  },
  rate_limited: {
    status: 429,
    graph: [130429, undefined, '(#130429) Rate limit hit'],
    onpremise: [1015, 'Too many requests'],
    twilio: [20429, 'Too Many Requests'],
  },
  unknown_recipient: {
    status: 400,
    graph: [131026, undefined, '(#131026) Message undeliverable'],
    onpremise: [1013, 'User is not valid'],
    twilio: [63003, 'Channel could not find To address'],
  },
  too_long: {
    status: 400,
    graph: [100, undefined, '(#100) Invalid parameter'],
    onpremise: [1009, 'Parameter value is not valid'],
    twilio: [21617, 'The concatenated message body exceeds the 1600 character limit'],
  },
  server: {
    status: 500,
    graph: [2, undefined, 'Service temporarily unavailable'],
    onpremise: [1000, 'Generic error'],
    twilio: [20500, 'Internal Server Error'],
  },
};

export const errorStatusOf = (kind: ErrorKind) => ERRORS[kind].status;

export function errorKindOf(status: number): ErrorKind {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  return status >= 500 ? 'server' : 'invalid';
}

/** The provider's error body for `kind`, as the route's API family writes it (`status` when answered with another than the usual). */
export function errorBody(dialect: ErrorDialect, kind: ErrorKind, status = ERRORS[kind].status): unknown {
  if (dialect === 'twilio') {
    const [code, message] = ERRORS[kind].twilio;
    return { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status };
  }
  if (dialect === 'onpremise') {
    const [code, title] = ERRORS[kind].onpremise;
    return { meta: { api_status: 'stable', version: '2.53.1' }, errors: [{ code, title, details: title }] };
  }
  if (dialect === 'd360') {
    const developer = kind === 'unauthorized' ? 'Invalid api key' : ERRORS[kind].graph[2];
    return { meta: { success: false, http_code: status, developer_message: developer, '360dialog_trace_id': simulatedId('') } };
  }
  const [code, subcode, message] = ERRORS[kind].graph;
  return {
    error: {
      message,
      type: 'OAuthException',
      code,
      ...(subcode !== undefined ? { error_subcode: subcode } : {}),
      error_data: { messaging_product: 'whatsapp', details: message.replace(/^\(#\d+\) /, '') },
      fbtrace_id: simulatedId('A'),
    },
  };
}

// --- webhook bodies ----------------------------------------------------------------------------

export interface InboundSpec {
  /** The contact's number (E.164). */
  from: string;
  text?: string;
  /** Profile name; 'Contact' when absent. */
  name?: string;
  /** A template quick-reply button pressed. */
  button?: { text: string; payload?: string };
  /** Served by the simulator at an address on its own host. */
  media?: { contentType: string; filename?: string; bytes: Buffer; caption?: string };
  /** The provider id of the message replied to. */
  contextId?: string;
  /** Twilio: the business number written to (E.164); the simulator's first number by default. */
  to?: string;
}

export type DeliveryStatus = 'sent' | 'delivered' | 'read' | 'failed';
export const BUSINESS_NUMBER = '5511900000000';
const now = () => String(Math.floor(Date.now() / 1000));
export const mediaKindOf = (contentType: string) =>
  contentType.startsWith('image/')
    ? 'image'
    : contentType.startsWith('audio/')
      ? 'audio'
      : contentType.startsWith('video/')
        ? 'video'
        : 'document';

/** A Cloud API webhook: one entry with one change. */
export const cloudEnvelope = (field: string, value: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: 'sim-waba',
      changes: [
        {
          field,
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: BUSINESS_NUMBER, phone_number_id: 'sim-phone' },
            ...value,
          },
        },
      ],
    },
  ],
});

/** The `value` of an inbound message (Cloud API format; the on-premise body is the same, flat). */
export function inboundValue(spec: InboundSpec, messageId: string, mediaId: string | null): Record<string, unknown> {
  const waId = spec.from.replace(/^\+/, '');
  const message: Record<string, unknown> = { from: waId, id: messageId, timestamp: now() };
  if (spec.contextId) message.context = { from: BUSINESS_NUMBER, id: spec.contextId };
  if (spec.button)
    Object.assign(message, { type: 'button', button: { text: spec.button.text, payload: spec.button.payload ?? spec.button.text } });
  else if (spec.media && mediaId) {
    const kind = mediaKindOf(spec.media.contentType);
    const part = {
      id: mediaId,
      mime_type: spec.media.contentType,
      ...(spec.media.filename ? { filename: spec.media.filename } : {}),
      ...(spec.media.caption ? { caption: spec.media.caption } : {}),
    };
    Object.assign(message, { type: kind, [kind]: part });
  } else Object.assign(message, { type: 'text', text: { body: spec.text ?? '' } });
  return { contacts: [{ profile: { name: spec.name ?? 'Contact' }, wa_id: waId }], messages: [message] };
}

export function statusValue(
  externalId: string,
  status: DeliveryStatus,
  to: string,
  error?: { code: string; title: string },
  callbackData?: unknown,
): Record<string, unknown> {
  const entry: Record<string, unknown> = { id: externalId, status, timestamp: now(), recipient_id: to };
  // The Cloud API returns the send's biz_opaque_callback_data in each of its status webhooks.
  if (typeof callbackData === 'string' && callbackData) entry.biz_opaque_callback_data = callbackData;
  if (error) entry.errors = [{ code: Number(error.code), title: error.title }];
  return { statuses: [entry] };
}

/** Twilio's inbound message parameters; `mediaUrl` is the Twilio-style address the simulator serves. */
export function twilioInbound(spec: InboundSpec, messageSid: string, mediaUrl: string | null, prefix = 'whatsapp:'): URLSearchParams {
  const p = new URLSearchParams({
    MessageSid: messageSid,
    SmsMessageSid: messageSid,
    SmsSid: messageSid,
    SmsStatus: 'received',
    From: `${prefix}+${spec.from.replace(/^\+/, '')}`,
    To: `${prefix}+${(spec.to ?? BUSINESS_NUMBER).replace(/^\+/, '')}`,
    Body: spec.button?.text ?? spec.media?.caption ?? spec.text ?? '',
    NumMedia: mediaUrl ? '1' : '0',
  });
  // WhatsApp names the contact; an SMS says how many segments it came in.
  if (prefix) {
    p.set('WaId', spec.from.replace(/^\+/, ''));
    p.set('ProfileName', spec.name ?? 'Contact');
  } else p.set('NumSegments', String(Math.max(1, smsSegments(p.get('Body') ?? '').segments)));
  if (mediaUrl && spec.media) {
    p.set('MediaUrl0', mediaUrl);
    p.set('MediaContentType0', spec.media.contentType);
  }
  if (spec.button) {
    p.set('ButtonText', spec.button.text);
    p.set('ButtonPayload', spec.button.payload ?? spec.button.text);
  }
  if (spec.contextId) p.set('OriginalRepliedMessageSid', spec.contextId);
  return p;
}

export function twilioStatus(
  messageSid: string,
  status: DeliveryStatus,
  to: string,
  error?: { code: string; title: string },
  prefix = 'whatsapp:',
): URLSearchParams {
  // Twilio reports a message it could not deliver as 'undelivered' (or 'failed' when it never left).
  const p = new URLSearchParams({
    MessageSid: messageSid,
    SmsSid: messageSid,
    MessageStatus: status === 'failed' ? 'undelivered' : status,
    SmsStatus: status === 'failed' ? 'undelivered' : status,
    To: `${prefix}+${to}`,
    From: `${prefix}+${BUSINESS_NUMBER}`,
  });
  // What Twilio documents for status callbacks: ErrorCode always, and on WhatsApp the channel's own
  // error text (ChannelStatusMessage); an SMS callback carries no error text.
  if (error) {
    p.set('ErrorCode', error.code);
    if (prefix) p.set('ChannelStatusMessage', error.title);
  }
  return p;
}

/** The body and headers of a webhook, signed as `provider` signs it. */
export function signedWebhook(
  provider: SimulatedProvider,
  url: string,
  payload: Record<string, unknown> | URLSearchParams,
  credentials: Record<string, string>,
): { body: string; headers: Record<string, string> } {
  if (payload instanceof URLSearchParams) {
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(url, payload, credentials.auth_token ?? ''),
      'i-twilio-idempotency-token': simulatedId(''),
    };
    return { body: payload.toString(), headers };
  }
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (provider === 'cloud') headers['x-hub-signature-256'] = hubSignature(body, credentials.app_secret ?? '');
  else headers[DIALOG360_WEBHOOK_HEADER] = credentials.webhook_secret ?? '';
  return { body, headers };
}
