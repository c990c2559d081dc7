import { TEMPLATE_STATUSES, type TemplateCategory, type TemplateStatus } from '@atende/contract';
import { ChannelDeliveryError, type OutboundMessage, type OutboundTemplate } from '../adapter';
import { cleanProviderText, isAmbiguousStatus, isTransientStatus, type HttpAnswer } from '../http';
import { statusLine } from '../outbound';
import type { ProviderTemplate, TemplateDefinition } from './types';

/**
 * The WhatsApp Cloud API's formats, shared by the Cloud API adapter and 360dialog (which speaks the
 * same format, and the older on-premise one): message bodies, error answers, templates. Webhook
 * bodies are read in cloud-webhook.ts.
 */

/** Provider template statuses onto ours, upper-case; unknown ones count as PENDING. */
export function templateStatusOf(raw: unknown): TemplateStatus {
  const s = String(raw ?? '')
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  if ((TEMPLATE_STATUSES as readonly string[]).includes(s)) return s as TemplateStatus;
  if (s === 'FLAGGED') return 'PAUSED';
  if (s === 'REINSTATED') return 'APPROVED';
  if (s === 'DELETION_PENDING') return 'PENDING_DELETION';
  // SUBMITTED, IN_REVIEW, RECEIVED and anything new: still waiting for the provider's verdict.
  return 'PENDING';
}

const CATEGORIES = new Set<string>(['AUTHENTICATION', 'MARKETING', 'UTILITY']);
export const categoryOf = (raw: unknown): TemplateCategory | null => {
  const s = String(raw ?? '').toUpperCase();
  return CATEGORIES.has(s) ? (s as TemplateCategory) : null;
};

const mediaKindOf = (contentType: string) =>
  contentType.startsWith('image/')
    ? 'image'
    : contentType.startsWith('video/')
      ? 'video'
      : contentType.startsWith('audio/')
        ? 'audio'
        : 'document';

/**
 * The Cloud API's biz_opaque_callback_data (at most 512 characters): it returns the value in the
 * status webhooks of the message (sent, delivered, read, failed). We put our id of the message
 * there (a subscriber's id for a campaign send), so a send whose answer was lost can still be
 * recognised by its receipts (apps/worker campaigns/receipts.ts).
 */
export const CALLBACK_DATA_MAX = 512;

/** The body of an outbound message in the Cloud API format (360dialog on-premise omits messaging_product and the callback data). */
export function messageBody(message: OutboundMessage, to: string, options: { messagingProduct: boolean }): Record<string, unknown> {
  const cloud = options.messagingProduct
    ? { messaging_product: 'whatsapp', recipient_type: 'individual', biz_opaque_callback_data: message.uuid.slice(0, CALLBACK_DATA_MAX) }
    : {};
  const base = { ...cloud, to };
  if (message.template) return { ...base, type: 'template', template: templateBody(message.template) };
  if (message.annex) {
    const kind = mediaKindOf(message.annex.contentType);
    const media: Record<string, string> = { link: message.annex.url };
    if (kind === 'document') media.filename = message.annex.originalFilename;
    // WhatsApp shows no caption under audio.
    if (message.content && kind !== 'audio') media.caption = message.content;
    return { ...base, type: kind, [kind]: media };
  }
  return { ...base, type: 'text', text: { body: message.content, preview_url: false } };
}

/** A template message's parameters: header text or media link, body parameters in order, URL-button suffixes by index. */
export function templateBody(template: OutboundTemplate): Record<string, unknown> {
  const components: Record<string, unknown>[] = [];
  if (template.header) {
    const h = template.header;
    const kind = h.format.toLowerCase();
    components.push({
      type: 'header',
      parameters: [h.format === 'TEXT' ? { type: 'text', text: h.value } : { type: kind, [kind]: { link: h.value } }],
    });
  }
  if (template.body.length) components.push({ type: 'body', parameters: template.body.map((text) => ({ type: 'text', text })) });
  for (const b of template.urlButtons)
    components.push({ type: 'button', sub_type: 'url', index: String(b.index), parameters: [{ type: 'text', text: b.text }] });
  return { name: template.name, language: { code: template.language, policy: 'deterministic' }, components };
}

/** A template definition as submitted: the spec's component shapes are the Cloud API's. */
export const templateSubmission = (template: TemplateDefinition) => ({
  name: template.name,
  language: template.language,
  category: template.category,
  components: template.components,
});

/** The provider's message id of a send answer ({messages:[{id}]}). */
export function sentId(answer: HttpAnswer): string | null {
  const body = answer.json() as { messages?: { id?: unknown }[] } | null;
  const id = body?.messages?.[0]?.id;
  return typeof id === 'string' && id ? id.slice(0, 200) : null;
}

/** Cloud API throttling codes: some answer 400, all mean "later". */
const THROTTLING_CODES = new Set([4, 80007, 130429, 131048, 131056]);

interface ErrorAnswer {
  /** Cloud API (and 360dialog's Cloud API). */
  error?: { code?: unknown; message?: unknown; error_subcode?: unknown; error_data?: { details?: unknown } };
  /** On-premise API. */
  errors?: { code?: unknown; title?: unknown; details?: unknown }[];
  /** 360dialog's own answers (a wrong D360-API-KEY). */
  meta?: { developer_message?: unknown };
}

/** A non-2xx answer as a ChannelDeliveryError naming the provider's code and text. */
export function providerFailure(provider: string, answer: HttpAnswer): ChannelDeliveryError {
  const body = answer.json() as ErrorAnswer | null;
  const onPremise = body?.errors?.[0];
  const code = body?.error?.code ?? onPremise?.code;
  const texts: string[] = [];
  for (const t of [
    body?.error?.message,
    body?.error?.error_data?.details,
    onPremise?.title,
    onPremise?.details,
    body?.meta?.developer_message,
  ]) {
    if (typeof t === 'string' && t && !texts.some((earlier) => earlier.includes(t))) texts.push(t);
  }
  // Only the provider's documented error fields; never the raw body (it may come from an internal service).
  const text = cleanProviderText(texts.join(': '));
  // Graph messages already start with "(#code)".
  const detail = code === undefined || text.startsWith(`(#${String(code)})`) ? text : `(#${String(code)}) ${text}`;
  const kind = isTransientStatus(answer.status) || THROTTLING_CODES.has(Number(code)) ? 'transient' : 'permanent';
  return new ChannelDeliveryError(
    kind,
    detail ? `${provider} answered ${answer.status}: ${detail}` : `${provider} answered ${statusLine(answer.status)}`,
    answer.status,
    { outcomeUnknown: isAmbiguousStatus(answer.status) },
  );
}

/** A template as the provider lists it ({id, name, language, status, category, rejected_reason}). */
export function providerTemplateOf(raw: unknown): ProviderTemplate | null {
  const t = raw as {
    id?: unknown;
    external_id?: unknown;
    name?: unknown;
    language?: unknown;
    status?: unknown;
    category?: unknown;
    rejected_reason?: unknown;
  } | null;
  if (!t || typeof t.name !== 'string') return null;
  const id = t.id ?? t.external_id;
  return {
    externalId: id !== undefined && id !== null && id !== '' ? String(id) : null,
    name: t.name,
    language: typeof t.language === 'string' ? t.language : '',
    category: categoryOf(t.category),
    status: templateStatusOf(t.status),
    reason: typeof t.rejected_reason === 'string' && t.rejected_reason !== 'NONE' ? t.rejected_reason : null,
  };
}

/** The answer to a template submission: its id, status and category, as far as the provider said. */
export function submittedTemplate(template: TemplateDefinition, answer: HttpAnswer): ProviderTemplate {
  const body = answer.json() as { id?: unknown; status?: unknown; category?: unknown } | null;
  const listed = providerTemplateOf({ ...body, name: template.name, language: template.language });
  return {
    externalId: listed?.externalId ?? null,
    name: template.name,
    language: template.language,
    category: categoryOf(body?.category) ?? template.category,
    status: templateStatusOf(body?.status),
    reason: null,
  };
}
