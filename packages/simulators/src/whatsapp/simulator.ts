import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { sameSecret } from '@atende/channels';
import {
  cloudEnvelope,
  errorBody,
  errorKindOf,
  errorStatusOf,
  inboundValue,
  signedWebhook,
  simulatedId,
  statusValue,
  twilioInbound,
  twilioStatus,
  type DeliveryStatus,
  type ErrorDialect,
  type ErrorKind,
  type InboundSpec,
  type SimulatedProvider,
} from './simulator-payloads';
import { ownedNumbers } from './simulator-numbers';

export type { DeliveryStatus, InboundSpec, SimulatedProvider } from './simulator-payloads';

/**
 * A stand-in for a WhatsApp provider's HTTP API (Cloud API, 360dialog or Twilio) for tests, benches,
 * the e2e stack and the demo: it takes sends and template calls on the provider's paths with its
 * auth, answers like it (ids, error bodies, rate limits), keeps a template store, serves media from
 * its own host, and posts the provider's webhooks (inbound messages, button replies, statuses,
 * template status changes) signed as the provider signs them. Steerable in-process (methods) or
 * over HTTP (/_simulator/*) from another process.
 */

export interface WhatsAppSimulatorOptions {
  provider: SimulatedProvider;
  /** The secrets it expects and signs with: access_token + app_secret, api_key + webhook_secret, or account_sid + auth_token. */
  credentials: Record<string, string>;
  /** Where it posts its webhooks (the channel's webhook_url); settable later. */
  webhookUrl?: string;
  /** 360dialog: the webhook body format, of the Cloud API (default) or the older on-premise API. */
  webhookFormat?: 'cloud' | 'onpremise';
  /** Numbers (E.164) it answers as not on WhatsApp (Cloud API 131026). */
  unknownRecipients?: string[];
  /** Twilio: the sender numbers (E.164) the account owns, each with its own webhook (simulator-numbers.ts); any sender when absent. */
  numbers?: string[];
  /**
   * Answer a repeated Idempotency-Key with the first answer instead of sending again. Off by
   * default: none of the providers it plays (Cloud API, 360dialog, Twilio) documents a request
   * idempotency key, so each POST is a new (paid) message. On only to play a provider that does.
   */
  dedupeIdempotencyKey?: boolean;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
}

/** A send it answered: accepted (200) or refused with `answeredStatus`. */
export interface SimulatedSend {
  id: string;
  path: string;
  body: Record<string, unknown>;
  /** 0: taken (a message went out) but the connection was dropped before answering (dropAnswerNext). */
  answeredStatus: number;
  idempotencyKey: string | null;
  /** The recipient's digits. */
  to: string;
}

export interface SimulatedTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: unknown[];
  rejected_reason: string | null;
}

/** A template API call (submit, list, edit, delete) as it arrived. */
export interface SimulatedTemplateCall {
  method: string;
  path: string;
  body: unknown;
  answeredStatus: number;
}

export interface WhatsAppSimulator {
  /** The base_url to configure on the channel. */
  readonly baseUrl: string;
  setWebhookUrl(url: string): void;
  sent(): SimulatedSend[];
  /** Messages that went out (accepted, answered or not), as the recipient's phone got them. */
  delivered(): SimulatedSend[];
  /**
   * Per recipient (digits), messages that went out again under an idempotency key already sent to
   * them: each a second message on their phone (a second charge on a real provider). {} when none.
   */
  duplicates(): Record<string, number>;
  /** With dedupeIdempotencyKey: sends that repeated a key and were answered again without sending. */
  duplicatesDropped(): number;
  templates(): SimulatedTemplate[];
  templateCalls(): SimulatedTemplateCall[];
  /** Answer the next `count` API calls with `status` (and the provider's error body for it, or `body`). */
  failNext(count: number, status: number, body?: unknown): void;
  /** Answer the next `count` API calls with the provider's rate-limit answer (429). */
  rateLimitNext(count: number): void;
  /** Take the next `count` sends (the messages go out) and drop the connection instead of answering: the sender cannot know. */
  dropAnswerNext(count: number): void;
  /** Answer sends to `phone` as to a number not on WhatsApp. */
  refuseRecipient(phone: string): void;
  /** Changes a template's status in the store and posts the template-status webhook (Cloud API and 360dialog). */
  setTemplateStatus(name: string, status: string, reason?: string): Promise<void>;
  /** Posts a contact's message (text, button reply or media) webhook; answers the provider message id. */
  sendInbound(spec: InboundSpec): Promise<string>;
  /**
   * Posts a delivery status webhook for a message sent through it. Twilio carries the error's code,
   * and its title only on WhatsApp (ChannelStatusMessage): an SMS status callback has no error text.
   */
  sendStatus(externalId: string, status: DeliveryStatus, error?: { code: string; title: string }): Promise<void>;
  /** Forgets sends, template calls and store, planned answers, media and refused recipients. */
  reset(): void;
  close(): Promise<void>;
}

/** Synchronous on purpose: a FastifyReply is thenable, and awaiting one waits for the client to have the answer. */
type Handler = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
const digitsOf = (phone: unknown) =>
  String(phone ?? '')
    .replace(/^whatsapp:/, '')
    .replace(/^\+/, '');
const MAX_PLANNED = 10_000;
/** A long-running simulator (the demo) keeps the latest records only. */
const MAX_RECORDED = 100_000;
const record = <T>(list: T[], item: T) => {
  list.push(item);
  if (list.length > MAX_RECORDED) list.splice(0, list.length - MAX_RECORDED);
};

export async function startWhatsAppSimulator(options: WhatsAppSimulatorOptions): Promise<WhatsAppSimulator> {
  const { provider } = options;
  // Its own copy: steering (a 360dialog webhook token) changes what it signs with, never the caller's object.
  const credentials = { ...options.credentials };
  // Twilio's Messages API serves both its WhatsApp ('whatsapp:' addresses) and its SMS (plain numbers).
  const twilio = provider === 'twilio' || provider === 'twilio_sms';
  const addressPrefix = provider === 'twilio_sms' ? '' : 'whatsapp:';
  /** Where each accepted message's status callbacks go (SMS sends name a StatusCallback). */
  const statusCallbacks = new Map<string, string>();
  let webhookUrl = options.webhookUrl ?? '';
  const sent: SimulatedSend[] = [];
  const calls: SimulatedTemplateCall[] = [];
  const store = new Map<string, SimulatedTemplate>();
  const media = new Map<string, { bytes: Buffer; contentType: string }>();
  const plan: { status: number; body?: unknown }[] = [];
  const unknown = new Set((options.unknownRecipients ?? []).map(digitsOf));
  const numbers = ownedNumbers(twilio ? options.numbers : undefined);
  const answeredKeys = new Map<string, string>();
  /** Keys of messages that went out, per recipient: a key seen again is a duplicate on the phone. */
  const deliveredKeys = new Set<string>();
  const duplicates = new Map<string, number>();
  let duplicatesDropped = 0;
  let dropAnswers = 0;
  let templateIds = 1_000_000;

  const app = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024, forceCloseConnections: true });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  // Known once listening; routes are all registered before that.
  let address = '';

  function authorized(request: FastifyRequest): boolean {
    const h = request.headers;
    if (provider === 'cloud') return sameSecret(h.authorization, `Bearer ${credentials.access_token}`);
    if (provider === '360dialog') return sameSecret(h['d360-api-key'], credentials.api_key);
    return sameSecret(h.authorization, `Basic ${Buffer.from(`${credentials.account_sid}:${credentials.auth_token}`).toString('base64')}`);
  }

  const fail = (reply: FastifyReply, dialect: ErrorDialect, kind: ErrorKind) =>
    reply.code(errorStatusOf(kind)).send(errorBody(dialect, kind));

  /** Auth, then a planned answer, as the provider answers them; null when the call goes through. */
  function gate(request: FastifyRequest, reply: FastifyReply, dialect: ErrorDialect): FastifyReply | null {
    if (!authorized(request)) return fail(reply, provider === '360dialog' ? 'd360' : dialect, 'unauthorized');
    const planned = plan.shift();
    if (!planned) return null;
    const body = planned.body ?? (planned.status >= 400 ? errorBody(dialect, errorKindOf(planned.status), planned.status) : {});
    return reply.code(planned.status).send(body);
  }

  async function postWebhook(payload: Record<string, unknown> | URLSearchParams, url = webhookUrl): Promise<void> {
    if (!url) throw new Error('The simulator has no webhook URL to post to');
    const { body, headers } = signedWebhook(provider, url, payload, credentials);
    const res = await fetch(url, { method: 'POST', body, headers });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`The webhook answered ${res.status}`);
  }
  /** A Cloud API webhook, flat for a 360dialog on-premise channel. */
  const postCloudFormat = (field: string, value: Record<string, unknown>) =>
    postWebhook(provider === '360dialog' && options.webhookFormat === 'onpremise' ? value : cloudEnvelope(field, value));

  // --- messages ---
  const recordSend =
    (dialect: ErrorDialect): Handler =>
    (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const key = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;
      const accepted = (id: string) =>
        twilio
          ? reply.code(201).send({
              sid: id,
              status: 'queued',
              to: body.To,
              from: body.From ?? null,
              messaging_service_sid: body.MessagingServiceSid ?? null,
            })
          : reply.send({
              ...(dialect === 'graph' ? { messaging_product: 'whatsapp' } : {}),
              contacts: [{ input: String(body.to), wa_id: digitsOf(body.to) }],
              messages: [{ id }],
            });
      const to = digitsOf(body.to ?? body.To);
      // Only when told to (dedupeIdempotencyKey): a repeated key gets the first answer again, and is not sent twice.
      const earlier = options.dedupeIdempotencyKey && key && authorized(request) ? answeredKeys.get(key) : undefined;
      if (earlier) {
        duplicatesDropped++;
        return accepted(earlier);
      }
      const messageId = twilio ? simulatedId('SM') : `wamid.${simulatedId('')}`;
      const refused =
        gate(request, reply, dialect) ??
        (twilio && body.From !== undefined && !numbers.owns(body.From)
          ? reply.code(400).send(numbers.refusal(body.From))
          : !/^\d{6,20}$/.test(to)
            ? fail(reply, dialect, 'invalid')
            : unknown.has(to)
              ? fail(reply, dialect, provider === 'twilio_sms' ? 'invalid' : 'unknown_recipient')
              : twilio && String(body.Body ?? '').length > 1600
                ? fail(reply, dialect, 'too_long')
                : null);
      const dropped = !refused && dropAnswers > 0;
      if (dropped) dropAnswers--;
      record(sent, {
        id: refused ? '' : messageId,
        path: request.url,
        body,
        answeredStatus: refused ? reply.statusCode : dropped ? 0 : 200,
        idempotencyKey: key,
        to,
      });
      if (refused) return refused;
      // A real provider ignores the header: a key it already sent to this phone is a second message there.
      const delivery = `${to}\n${key ?? messageId}`;
      if (deliveredKeys.has(delivery)) duplicates.set(to, (duplicates.get(to) ?? 0) + 1);
      deliveredKeys.add(delivery);
      if (key) answeredKeys.set(key, messageId);
      if (twilio && typeof body.StatusCallback === 'string' && body.StatusCallback) statusCallbacks.set(messageId, body.StatusCallback);
      if (dropped) {
        // The message went out; its answer never reaches the sender.
        reply.hijack();
        request.raw.socket.destroy();
        return reply;
      }
      return accepted(messageId);
    };

  // --- templates ---
  const templateList = () => [...store.values()].map((t) => ({ ...t }));
  const templateCall =
    (dialect: ErrorDialect, handle: Handler): Handler =>
    (request, reply) => {
      const answered = gate(request, reply, dialect) ?? handle(request, reply);
      record(calls, { method: request.method, path: request.url, body: request.body ?? null, answeredStatus: answered.statusCode });
      return answered;
    };
  const createTemplate =
    (dialect: ErrorDialect): Handler =>
    (request, reply) => {
      const body = (request.body ?? {}) as { name?: string; language?: string; category?: string; components?: unknown[] };
      if (!body.name || !body.language || !Array.isArray(body.components)) return fail(reply, dialect, 'invalid');
      if ([...store.values()].some((t) => t.name === body.name && t.language === body.language)) return fail(reply, dialect, 'duplicate');
      const t: SimulatedTemplate = {
        id: String(++templateIds),
        name: body.name,
        language: body.language,
        category: body.category ?? 'MARKETING',
        status: 'PENDING',
        components: body.components,
        rejected_reason: null,
      };
      store.set(t.id, t);
      return reply.send(
        provider === 'cloud'
          ? { id: t.id, status: 'PENDING', category: t.category }
          : { id: t.id, name: t.name, language: t.language, status: 'submitted', category: t.category },
      );
    };
  const deleteTemplate =
    (dialect: ErrorDialect, nameOf: (request: FastifyRequest) => string | undefined): Handler =>
    (request, reply) => {
      const found = [...store.values()].filter((t) => t.name === nameOf(request));
      if (!found.length) return fail(reply, dialect, 'not_found');
      for (const t of found) store.delete(t.id);
      return reply.send({ success: true });
    };
  const editTemplate: Handler = (request, reply) => {
    const t = store.get((request.params as { id: string }).id);
    if (!t) return fail(reply, 'graph', 'not_found');
    t.components = ((request.body ?? {}) as { components?: unknown[] }).components ?? t.components;
    t.status = 'PENDING';
    return reply.send({ success: true });
  };

  // --- media, served from its own host ---
  const mediaMeta =
    (dialect: ErrorDialect, urlOf: (id: string) => string): Handler =>
    (request, reply) => {
      const refused = gate(request, reply, dialect);
      if (refused) return refused;
      const id = (request.params as { id: string }).id;
      const item = media.get(id);
      if (!item) return fail(reply, dialect, 'not_found');
      return reply.send({
        messaging_product: 'whatsapp',
        url: urlOf(id),
        mime_type: item.contentType,
        sha256: '',
        file_size: item.bytes.length,
        id,
      });
    };
  const mediaBytes =
    (dialect: ErrorDialect, idOf: (request: FastifyRequest) => string, auth = true): Handler =>
    (request, reply) => {
      if (auth && !authorized(request)) return fail(reply, provider === '360dialog' ? 'd360' : dialect, 'unauthorized');
      const item = media.get(idOf(request));
      if (!item) return fail(reply, dialect, 'not_found');
      return reply.type(item.contentType).send(item.bytes);
    };
  const byId = (request: FastifyRequest) => (request.params as { id: string }).id;

  // --- the provider's API ---
  if (provider === 'cloud') {
    app.post('/:version/:phone/messages', recordSend('graph'));
    app.post('/:version/:waba/message_templates', templateCall('graph', createTemplate('graph')));
    app.get(
      '/:version/:waba/message_templates',
      templateCall('graph', (_request, reply) => reply.send({ data: templateList(), paging: { cursors: {} } })),
    );
    app.delete(
      '/:version/:waba/message_templates',
      templateCall(
        'graph',
        deleteTemplate('graph', (r) => (r.query as { name?: string }).name),
      ),
    );
    app.post('/:version/:id', templateCall('graph', editTemplate));
    app.get(
      '/:version/:id',
      mediaMeta('graph', (id) => `${address}/_media/${id}`),
    );
    app.get('/_media/:id', mediaBytes('graph', byId));
  } else if (provider === '360dialog') {
    app.post('/messages', recordSend('graph'));
    app.post('/v1/messages', recordSend('onpremise'));
    app.post('/v1/configs/templates', templateCall('d360', createTemplate('d360')));
    app.get(
      '/v1/configs/templates',
      templateCall('d360', (_request, reply) => {
        const all = templateList();
        return reply.send({ count: all.length, offset: 0, limit: 1000, total: all.length, waba_templates: all });
      }),
    );
    app.delete(
      '/v1/configs/templates/:name',
      templateCall(
        'd360',
        deleteTemplate('d360', (r) => (r.params as { name: string }).name),
      ),
    );
    app.get('/v1/media/:id', mediaBytes('onpremise', byId));
    // Like 360dialog's Cloud API: a Meta address whose path it serves itself.
    app.get(
      '/:id',
      mediaMeta('graph', (id) => `https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=${id}`),
    );
    app.get(
      '/whatsapp_business/attachments/',
      mediaBytes('graph', (r) => String((r.query as { mid?: string }).mid)),
    );
  } else {
    app.post('/2010-04-01/Accounts/:sid/Messages.json', recordSend('twilio'));
    // Twilio's media address answers with a redirect to its CDN's pre-signed one.
    app.get('/2010-04-01/Accounts/:sid/Messages/:message/Media/:id', (request, reply) =>
      authorized(request) ? reply.redirect(`${address}/_cdn/${byId(request)}`, 307) : fail(reply, 'twilio', 'unauthorized'),
    );
    app.get('/_cdn/:id', mediaBytes('twilio', byId, false));
  }

  // --- what the simulator does on its own ---
  async function setTemplateStatus(name: string, status: string, reason?: string): Promise<void> {
    const found = [...store.values()].filter((t) => t.name === name);
    if (!found.length) throw new Error(`No template named ${name}`);
    for (const t of found) {
      t.status = status.toUpperCase();
      t.rejected_reason = reason ?? null;
      if (twilio || !webhookUrl) continue;
      const value = {
        event: t.status,
        message_template_id: Number(t.id),
        message_template_name: t.name,
        message_template_language: t.language,
        reason: reason ?? 'NONE',
      };
      await postWebhook(cloudEnvelope('message_template_status_update', value));
    }
  }

  async function sendInbound(spec: InboundSpec): Promise<string> {
    const messageId = twilio ? simulatedId('SM') : `wamid.${simulatedId('')}`;
    const mediaId = spec.media ? simulatedId(twilio ? 'ME' : '') : null;
    if (spec.media && mediaId) media.set(mediaId, { bytes: spec.media.bytes, contentType: spec.media.contentType });
    if (twilio) {
      const mediaUrl = mediaId ? `${address}/2010-04-01/Accounts/${credentials.account_sid}/Messages/${messageId}/Media/${mediaId}` : null;
      // Written to one of the account's numbers, posted to that number's webhook.
      const to = spec.to ?? numbers.main();
      if (to !== undefined && !numbers.owns(to)) throw Object.assign(new Error(`The account owns no number ${to}`), { statusCode: 400 });
      await postWebhook(twilioInbound({ ...spec, to }, messageId, mediaUrl, addressPrefix), numbers.webhookOf(to ?? '', webhookUrl));
    } else await postCloudFormat('messages', inboundValue(spec, messageId, mediaId));
    return messageId;
  }

  async function sendStatus(externalId: string, status: DeliveryStatus, error?: { code: string; title: string }): Promise<void> {
    const message = sent.find((s) => s.id === externalId)?.body;
    const to = digitsOf(message?.to ?? message?.To ?? '5511988887777');
    if (twilio)
      return postWebhook(twilioStatus(externalId, status, to, error, addressPrefix), statusCallbacks.get(externalId) ?? webhookUrl);
    return postCloudFormat('messages', statusValue(externalId, status, to, error, message?.biz_opaque_callback_data));
  }

  const planFailures = (count: number, status: number, body?: unknown) => {
    for (let i = 0; i < Math.min(MAX_PLANNED, count); i++) plan.push({ status, body });
  };

  function reset() {
    sent.length = 0;
    calls.length = 0;
    plan.length = 0;
    store.clear();
    media.clear();
    unknown.clear();
    answeredKeys.clear();
    deliveredKeys.clear();
    duplicates.clear();
    statusCallbacks.clear();
    duplicatesDropped = 0;
    dropAnswers = 0;
  }

  // --- steering over HTTP, for benches and e2e running it in another process ---
  type Steer = Record<string, unknown>;
  const steer = (request: FastifyRequest) => (request.body ?? {}) as Steer;
  // A steering call whose webhook could not be posted (no URL yet, or the receiver refused it) says why.
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => {
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 502;
    return reply.code(status).send({ error_message: error.message });
  });
  app.post('/_simulator/plan', async (request, reply) => {
    const b = steer(request);
    planFailures(Number(b.count ?? 1), Number(b.status ?? 500), b.body);
    return reply.code(204).send();
  });
  app.post('/_simulator/rate-limit', async (request, reply) => {
    planFailures(Number(steer(request).count ?? 1), 429);
    return reply.code(204).send();
  });
  app.post('/_simulator/drop-answer', async (request, reply) => {
    dropAnswers += Math.max(0, Math.min(MAX_PLANNED, Number(steer(request).count ?? 1)));
    return reply.code(204).send();
  });
  app.post('/_simulator/unknown-recipients', async (request, reply) => {
    const numbers = steer(request).numbers;
    for (const n of Array.isArray(numbers) ? numbers : []) unknown.add(digitsOf(n));
    return reply.code(204).send();
  });
  app.post('/_simulator/templates/status', async (request, reply) => {
    const b = steer(request);
    if (typeof b.name !== 'string' || typeof b.status !== 'string')
      return reply.code(400).send({ error_message: 'name and status are required' });
    if (!templateList().some((t) => t.name === b.name)) return reply.code(404).send({ error_message: `No template named ${b.name}` });
    await setTemplateStatus(b.name, b.status, typeof b.reason === 'string' ? b.reason : undefined);
    return reply.code(204).send();
  });
  app.post('/_simulator/inbound', async (request, reply) => {
    const b = steer(request) as Omit<InboundSpec, 'media'> & {
      media?: { contentType: string; filename?: string; caption?: string; base64?: string };
    };
    if (typeof b.from !== 'string') return reply.code(400).send({ error_message: 'from is required' });
    const spec: InboundSpec = { ...b, media: b.media ? { ...b.media, bytes: Buffer.from(b.media.base64 ?? '', 'base64') } : undefined };
    return reply.send({ id: await sendInbound(spec) });
  });
  app.post('/_simulator/status', async (request, reply) => {
    const b = steer(request) as { external_id?: string; status?: DeliveryStatus; error?: { code: string; title: string } };
    if (!b.external_id || !b.status || !['sent', 'delivered', 'read', 'failed'].includes(b.status))
      return reply.code(400).send({ error_message: 'external_id and status are required' });
    await sendStatus(b.external_id, b.status, b.error);
    return reply.code(204).send();
  });
  // Twilio: `number` sets that owned number's webhook only; without it, the account's.
  // 360dialog: `token` is the header value the channel asked for (it generates one when created, as
  // an admin gives it to 360dialog with the webhook address).
  app.post('/_simulator/webhook-url', async (request, reply) => {
    const b = steer(request);
    if (provider === '360dialog' && typeof b.token === 'string' && b.token) credentials.webhook_secret = b.token;
    if (typeof b.number === 'string' && b.number) {
      if (!numbers.setWebhook(b.number, String(b.url ?? '')))
        return reply.code(400).send({ error_message: `The account owns no number ${b.number}` });
    } else webhookUrl = String(b.url ?? '');
    return reply.code(204).send();
  });
  app.get('/_simulator/sent', async () => ({ sent, duplicates: Object.fromEntries(duplicates), duplicates_dropped: duplicatesDropped }));
  app.get('/_simulator/templates', async () => ({ templates: templateList(), calls }));
  app.delete('/_simulator/requests', async (_request, reply) => {
    reset();
    return reply.code(204).send();
  });

  address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return {
    baseUrl: address,
    setWebhookUrl: (url) => {
      webhookUrl = url;
    },
    sent: () => sent.slice(),
    delivered: () => sent.filter((s) => s.id !== ''),
    duplicates: () => Object.fromEntries(duplicates),
    duplicatesDropped: () => duplicatesDropped,
    templates: templateList,
    templateCalls: () => calls.slice(),
    failNext: planFailures,
    rateLimitNext: (count) => planFailures(count, 429),
    dropAnswerNext: (count) => void (dropAnswers += count),
    refuseRecipient: (phone) => void unknown.add(digitsOf(phone)),
    setTemplateStatus,
    sendInbound,
    sendStatus,
    reset,
    close: () => app.close(),
  };
}
