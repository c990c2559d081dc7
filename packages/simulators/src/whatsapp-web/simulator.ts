import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { sameSecret } from '@atende/channels';
import { qrPngDataUrl } from './qr-png';

/**
 * A stand-in for a WhatsApp Web bridge speaking the Evolution API v2
 * (packages/channels/src/fixtures/provider-docs/whatsapp-web/README.md) for tests, the e2e stack and
 * the demo: one instance with its phone, sendText / sendMedia / sendWhatsAppAudio with the bridge's
 * answers, connectionState and connect (a QR code as a PNG data URL while the phone is not linked),
 * webhook/set remembered and used for the events it posts (messages.upsert, messages.update,
 * connection.update) with the headers it was given, and getBase64FromMediaMessage for the files
 * contacts sent. As strict as the bridge: a call without the instance's token or the global key
 * answers 401, another instance 404, a send while the phone is not linked 400. Steerable in-process
 * or over HTTP (/_simulator/*).
 */

export type BridgeState = 'open' | 'connecting' | 'close';

export interface WhatsAppWebSimulatorOptions {
  /** The instance's name (the path segment of every call). */
  instance: string;
  /** The instance's token, taken as `apikey`. */
  apiKey: string;
  /** The server's global key, also taken (AUTHENTICATION_API_KEY). */
  globalKey?: string;
  /** The phone starts linked unless told. */
  state?: BridgeState;
  /** A webhook already set, as webhook/set would (the demo's seeded channel). */
  webhook?: { url: string; headers?: Record<string, string> };
  /** Whether webhook bodies carry the instance's token as `apikey` (AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES); on unless told. */
  exposeApiKey?: boolean;
  /** Numbers the bridge finds not on WhatsApp: a send to them answers 400 `exists: false`. */
  notOnWhatsApp?: string[];
  host?: string;
  port?: number;
}

/** A contact writing to the linked phone. */
export interface SimulatedInbound {
  from: { phone: string; name?: string };
  text?: string;
  /** The message answered (our external id). */
  replyTo?: string;
  image?: { bytes: Buffer; mimetype?: string; caption?: string };
  document?: { bytes: Buffer; filename: string; mimetype: string; caption?: string };
  /** A voice note (Opus in Ogg). */
  voice?: Buffer;
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  contact?: { name: string; phone: string };
  /** Posted as written in a group the phone is in. */
  group?: boolean;
}

/** A send call it answered. */
export interface BridgeSend {
  endpoint: 'sendText' | 'sendMedia' | 'sendWhatsAppAudio';
  number: string;
  text: string | null;
  caption: string | null;
  mediatype: string | null;
  mimetype: string | null;
  /** The file's link (sendMedia's media, sendWhatsAppAudio's audio). */
  media: string | null;
  fileName: string | null;
  answeredStatus: number;
  messageId: string | null;
}

export interface WhatsAppWebSimulator {
  readonly baseUrl: string;
  readonly state: BridgeState;
  /** What webhook/set registered. */
  webhook(): { url: string; headers: Record<string, string>; events: string[] } | null;
  sent(): BridgeSend[];
  /** Answers the next `count` calls with `status` and the bridge's error body. */
  failNext(count: number, status: number, message?: string): void;
  /** Posts a contact's message (messages.upsert) to the webhook; answers the event's data. */
  sendInbound(inbound: SimulatedInbound): Promise<Record<string, unknown>>;
  /** Posts a receipt of one of our messages (messages.update): DELIVERY_ACK, READ, ... */
  receipt(messageId: string, status: string): Promise<void>;
  /** The phone connects, starts linking or disconnects; posts connection.update. */
  setConnection(state: BridgeState, statusReason?: number): Promise<void>;
  /** Posts an event as given (a repeated or forged delivery); answers the webhook's status. */
  postEvent(event: string, data: unknown, headers?: Record<string, string>): Promise<number>;
  reset(): void;
  close(): Promise<void>;
}

const MAX_RECORDED = 10_000;
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};
/** The bridge's error body. */
const failure = (status: number, message: unknown) => ({ status, error: STATUS_TEXT[status] ?? 'Error', response: { message } });
const messageId = () => `BAE5${randomBytes(6).toString('hex').toUpperCase()}`;
const jidOf = (digits: string) => `${digits}@s.whatsapp.net`;
const seconds = () => Math.floor(Date.now() / 1000);

type Body = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : null);

export async function startWhatsAppWebSimulator(options: WhatsAppWebSimulatorOptions): Promise<WhatsAppWebSimulator> {
  const sent: BridgeSend[] = [];
  const plan: { status: number; body: unknown }[] = [];
  /** Files contacts sent, by message id: getBase64FromMediaMessage answers them. */
  const files = new Map<string, { bytes: Buffer; mimetype: string; fileName: string; mediaType: string; caption: string | null }>();
  const notOnWhatsApp = new Set(options.notOnWhatsApp ?? []);
  let state: BridgeState = options.state ?? 'open';
  let hook: { url: string; headers: Record<string, string>; events: string[] } | null = options.webhook
    ? { url: options.webhook.url, headers: options.webhook.headers ?? {}, events: [] }
    : null;
  let qrCount = 0;

  const app = Fastify({ logger: false, bodyLimit: 20 * 1024 * 1024, forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
  const bodyOf = (request: FastifyRequest): Body | null => {
    const raw = Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '';
    if (!raw) return {};
    try {
      const parsed: unknown = JSON.parse(raw);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Body) : null;
    } catch {
      return null;
    }
  };

  /** The bridge's guards: the key (global, or the instance's token), then the instance. */
  function guard(request: FastifyRequest<{ Params: { instance: string } }>, reply: FastifyReply): FastifyReply | null {
    const key = request.headers.apikey;
    const ok = sameSecret(key, options.apiKey) || (options.globalKey !== undefined && sameSecret(key, options.globalKey));
    if (!ok) return reply.code(401).send(failure(401, 'Unauthorized'));
    if (request.params.instance !== options.instance)
      return reply.code(404).send(failure(404, [`The "${request.params.instance}" instance does not exist`]));
    const planned = plan.shift();
    if (planned) return reply.code(planned.status).send(planned.body);
    return null;
  }

  async function postEvent(event: string, data: unknown, headers?: Record<string, string>): Promise<number> {
    if (!hook) throw new Error('No webhook is set (webhook/set)');
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(headers ?? hook.headers) },
      body: JSON.stringify({
        event,
        instance: options.instance,
        data,
        destination: hook.url,
        date_time: new Date().toISOString(),
        sender: jidOf('5511900000000'),
        server_url: address,
        apikey: options.exposeApiKey === false ? null : options.apiKey,
      }),
    });
    await res.arrayBuffer();
    return res.status;
  }

  function send(endpoint: BridgeSend['endpoint'], request: FastifyRequest<{ Params: { instance: string } }>, reply: FastifyReply) {
    const refused = guard(request, reply);
    if (refused) return refused;
    const b = bodyOf(request);
    const number = text(b?.number)?.replace(/\D/g, '') ?? '';
    const record = (status: number, id: string | null) => {
      sent.push({
        endpoint,
        number,
        text: text(b?.text),
        caption: text(b?.caption),
        mediatype: text(b?.mediatype),
        mimetype: text(b?.mimetype),
        media: text(b?.media) ?? text(b?.audio),
        fileName: text(b?.fileName),
        answeredStatus: status,
        messageId: id,
      });
      if (sent.length > MAX_RECORDED) sent.splice(0, sent.length - MAX_RECORDED);
    };
    const refuse = (status: number, message: unknown) => {
      record(status, null);
      return reply.code(status).send(failure(status, message));
    };
    if (!b) return refuse(400, ['Invalid JSON body']);
    if (!/^\d{8,20}$/.test(number)) return refuse(400, ['number must be a phone number with its country code']);
    if (state !== 'open') return refuse(400, ['Error: Connection Closed']);
    if (notOnWhatsApp.has(number)) return refuse(400, [{ jid: jidOf(number), exists: false, number }]);
    let message: Body;
    if (endpoint === 'sendText') {
      const body = text(b.text) ?? '';
      if (!body.trim()) return refuse(400, ['text is required']);
      message = { extendedTextMessage: { text: body } };
    } else if (endpoint === 'sendMedia') {
      const kind = text(b.mediatype);
      const media = text(b.media) ?? '';
      if (kind !== 'image' && kind !== 'video' && kind !== 'document' && kind !== 'audio')
        return refuse(400, ['mediatype must be image, video, document or audio']);
      if (!/^https?:\/\//.test(media) && !/^[A-Za-z0-9+/]+={0,2}$/.test(media)) return refuse(400, ['media must be a URL or base64']);
      message = {
        [`${kind}Message`]: {
          url: 'https://mmg.whatsapp.net/o1/v/t62.7118-24/simulated.enc',
          mimetype: text(b.mimetype) ?? 'application/octet-stream',
          ...(text(b.caption) ? { caption: b.caption } : {}),
          ...(kind === 'document' ? { fileName: text(b.fileName) ?? 'file' } : {}),
        },
      };
    } else {
      const audio = text(b.audio) ?? '';
      if (!audio) return refuse(400, ['audio is required']);
      message = {
        audioMessage: { url: 'https://mmg.whatsapp.net/v/t62.7114-24/simulated.enc', mimetype: 'audio/mp4', ptt: true, seconds: 3 },
      };
    }
    const id = messageId();
    record(endpoint === 'sendWhatsAppAudio' ? 200 : 201, id);
    return reply
      .code(endpoint === 'sendWhatsAppAudio' ? 200 : 201)
      .send({ key: { remoteJid: jidOf(number), fromMe: true, id }, message, messageTimestamp: String(seconds()), status: 'PENDING' });
  }

  type Call = FastifyRequest<{ Params: { instance: string } }>;
  app.post('/message/sendText/:instance', (request: Call, reply) => send('sendText', request, reply));
  app.post('/message/sendMedia/:instance', (request: Call, reply) => send('sendMedia', request, reply));
  app.post('/message/sendWhatsAppAudio/:instance', (request: Call, reply) => send('sendWhatsAppAudio', request, reply));

  app.get('/instance/connectionState/:instance', (request: Call, reply) => {
    return guard(request, reply) ?? reply.send({ instance: { instanceName: options.instance, state } });
  });
  // Asking for the QR code of an unlinked phone starts linking it, as the bridge does.
  app.get('/instance/connect/:instance', (request: Call, reply) => {
    const refused = guard(request, reply);
    if (refused) return refused;
    if (state === 'open') return reply.send({ instance: { instanceName: options.instance, state } });
    state = 'connecting';
    const code = `2@${randomBytes(24).toString('base64')},${randomBytes(16).toString('base64')}`;
    return reply.send({ pairingCode: null, code, base64: qrPngDataUrl(code), count: ++qrCount });
  });

  // The bridge validates the webhook nested under `webhook`; its reference shows it flat: both are read.
  app.post('/webhook/set/:instance', (request: Call, reply) => {
    const refused = guard(request, reply);
    if (refused) return refused;
    const b = bodyOf(request);
    const w = (b?.webhook && typeof b.webhook === 'object' ? b.webhook : b) as Body | null;
    const url = text(w?.url) ?? '';
    if (!/^https?:\/\//.test(url)) return reply.code(400).send(failure(400, ['Invalid "url" property']));
    const headers = Object.fromEntries(
      Object.entries((w?.headers as Record<string, unknown> | undefined) ?? {}).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      ),
    );
    const events = Array.isArray(w?.events) ? w.events.filter((e): e is string => typeof e === 'string') : [];
    hook = w?.enabled === false ? null : { url, headers, events };
    return reply.code(201).send({ webhook: { instanceName: options.instance, webhook: { url, events, enabled: hook !== null } } });
  });
  app.get('/webhook/find/:instance', (request: Call, reply) => {
    return guard(request, reply) ?? reply.send(hook ? { enabled: true, url: hook.url, events: hook.events } : { enabled: false });
  });

  app.post('/chat/getBase64FromMediaMessage/:instance', (request: Call, reply) => {
    const refused = guard(request, reply);
    if (refused) return refused;
    const key = (bodyOf(request)?.message as { key?: { id?: unknown } } | undefined)?.key;
    const file = typeof key?.id === 'string' ? files.get(key.id) : undefined;
    if (!file) return reply.code(400).send(failure(400, ['Error: Message not found']));
    return reply.send({
      mediaType: file.mediaType,
      fileName: file.fileName,
      caption: file.caption,
      size: { fileLength: String(file.bytes.length) },
      mimetype: file.mimetype,
      base64: file.bytes.toString('base64'),
    });
  });

  async function sendInbound(inbound: SimulatedInbound): Promise<Record<string, unknown>> {
    const digits = inbound.from.phone.replace(/\D/g, '');
    const id = `3EB0${randomBytes(8).toString('hex').toUpperCase()}`;
    const keep = (bytes: Buffer, mimetype: string, fileName: string, mediaType: string, caption: string | null) =>
      files.set(id, { bytes, mimetype, fileName, mediaType, caption });
    let message: Body;
    let messageType: string;
    if (inbound.image) {
      const mimetype = inbound.image.mimetype ?? 'image/jpeg';
      keep(inbound.image.bytes, mimetype, `${id}.jpeg`, 'imageMessage', inbound.image.caption ?? null);
      message = {
        imageMessage: {
          mimetype,
          fileLength: String(inbound.image.bytes.length),
          ...(inbound.image.caption ? { caption: inbound.image.caption } : {}),
        },
      };
      messageType = 'imageMessage';
    } else if (inbound.document) {
      const d = inbound.document;
      keep(d.bytes, d.mimetype, d.filename, 'documentMessage', d.caption ?? null);
      message = {
        documentMessage: { mimetype: d.mimetype, fileName: d.filename, title: d.filename, ...(d.caption ? { caption: d.caption } : {}) },
      };
      messageType = 'documentMessage';
    } else if (inbound.voice) {
      keep(inbound.voice, 'audio/ogg; codecs=opus', `${id}.oga`, 'audioMessage', null);
      message = { audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 2, fileLength: String(inbound.voice.length) } };
      messageType = 'audioMessage';
    } else if (inbound.location) {
      const l = inbound.location;
      message = { locationMessage: { degreesLatitude: l.latitude, degreesLongitude: l.longitude, name: l.name, address: l.address } };
      messageType = 'locationMessage';
    } else if (inbound.contact) {
      const c = inbound.contact;
      const waid = c.phone.replace(/\D/g, '');
      const vcard = `BEGIN:VCARD\nVERSION:3.0\nN:${c.name}\nFN:${c.name}\nitem1.TEL;waid=${waid}:${c.phone}\nitem1.X-ABLabel:Celular\nEND:VCARD`;
      message = { contactMessage: { displayName: c.name, vcard } };
      messageType = 'contactMessage';
    } else {
      message = { conversation: inbound.text ?? '' };
      messageType = 'conversation';
    }
    const data = {
      key: inbound.group
        ? { remoteJid: '120363025246125486@g.us', fromMe: false, id, participant: jidOf(digits) }
        : { remoteJid: jidOf(digits), fromMe: false, id },
      pushName: inbound.from.name ?? null,
      status: 'DELIVERY_ACK',
      message,
      ...(inbound.replyTo ? { contextInfo: { stanzaId: inbound.replyTo } } : {}),
      messageType,
      messageTimestamp: seconds(),
      instanceId: 'simulated-instance',
      source: 'android',
    };
    const status = await postEvent('messages.upsert', data);
    if (status >= 300) throw new Error(`The webhook answered ${status}`);
    return data;
  }

  async function receipt(id: string, status: string): Promise<void> {
    const delivery = sent.find((s) => s.messageId === id);
    const code = await postEvent('messages.update', {
      keyId: id,
      remoteJid: jidOf(delivery?.number ?? '0'),
      fromMe: true,
      participant: null,
      status,
      instanceId: 'simulated-instance',
    });
    if (code >= 300) throw new Error(`The webhook answered ${code}`);
  }

  async function setConnection(next: BridgeState, statusReason = next === 'close' ? 401 : 200): Promise<void> {
    state = next;
    if (hook) await postEvent('connection.update', { instance: options.instance, state: next, statusReason });
  }

  const planFailures = (count: number, status: number, message: string) => {
    for (let i = 0; i < Math.min(count, 10_000); i++) plan.push({ status, body: failure(status, [message]) });
  };

  // --- steering over HTTP (the demo, e2e) ---
  app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) =>
    reply.code(error.statusCode === 400 ? 400 : 502).send({ error_message: error.message }),
  );
  app.post('/_simulator/inbound', async (request, reply) => {
    const b = (bodyOf(request) ?? {}) as {
      from?: { phone?: unknown; name?: unknown };
      text?: string;
      reply_to?: string;
      image_base64?: string;
      caption?: string;
      document?: { base64?: string; filename?: string; mime_type?: string };
      voice_base64?: string;
      location?: SimulatedInbound['location'];
      contact?: SimulatedInbound['contact'];
      group?: boolean;
    };
    if (typeof b.from?.phone !== 'string') return reply.code(400).send({ error_message: 'from.phone is required' });
    const data = await sendInbound({
      from: { phone: b.from.phone, ...(typeof b.from.name === 'string' ? { name: b.from.name } : {}) },
      text: b.text,
      replyTo: b.reply_to,
      image: b.image_base64 ? { bytes: Buffer.from(b.image_base64, 'base64'), caption: b.caption } : undefined,
      document: b.document
        ? {
            bytes: Buffer.from(b.document.base64 ?? '', 'base64'),
            filename: b.document.filename ?? 'file.bin',
            mimetype: b.document.mime_type ?? 'application/octet-stream',
            caption: b.caption,
          }
        : undefined,
      voice: b.voice_base64 ? Buffer.from(b.voice_base64, 'base64') : undefined,
      location: b.location,
      contact: b.contact,
      group: b.group === true,
    });
    return reply.send({ data });
  });
  app.get('/_simulator/sent', async () => ({ sent }));
  app.post('/_simulator/connection', async (request, reply) => {
    const next = bodyOf(request)?.state;
    if (next !== 'open' && next !== 'close' && next !== 'connecting')
      return reply.code(400).send({ error_message: 'state is open, connecting or close' });
    await setConnection(next);
    return reply.send({ state });
  });
  app.post('/_simulator/receipt', async (request, reply) => {
    const b = bodyOf(request);
    if (typeof b?.id !== 'string' || typeof b.status !== 'string')
      return reply.code(400).send({ error_message: 'id and status (DELIVERY_ACK, READ) are required' });
    await receipt(b.id, b.status);
    return reply.code(204).send();
  });
  app.post('/_simulator/plan', async (request, reply) => {
    const b = bodyOf(request) ?? {};
    const status = Number(b.status ?? 500);
    planFailures(Number(b.count ?? 1), status, text(b.message) ?? STATUS_TEXT[status] ?? 'Error');
    return reply.code(204).send();
  });
  app.get('/_simulator/webhook', async () => ({ webhook: hook }));

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return {
    baseUrl: address,
    get state() {
      return state;
    },
    webhook: () => hook,
    sent: () => sent.slice(),
    failNext: (count, status, message) => planFailures(count, status, message ?? STATUS_TEXT[status] ?? 'Error'),
    sendInbound,
    receipt,
    setConnection,
    postEvent,
    reset: () => {
      sent.length = 0;
      plan.length = 0;
    },
    close: () => app.close(),
  };
}
