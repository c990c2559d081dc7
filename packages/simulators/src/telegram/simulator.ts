import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { sameSecret } from '@atende/channels';
import { parseMultipart } from './simulator-multipart';

/**
 * A stand-in for the Telegram Bot API (https://core.telegram.org/bots/api) for tests, the e2e stack
 * and the demo: /bot<token>/<method> with the API's answers ({ok, result} or {ok:false, error_code,
 * description, parameters}), setWebhook remembered and used for the updates it posts (with the
 * X-Telegram-Bot-Api-Secret-Token header), uploads (multipart) and links taken, files served at
 * /file/bot<token>/<path> after getFile. It plays contacts writing to the bot. Steerable in-process
 * or over HTTP (/_simulator/*).
 *
 * Like the Bot API, it serves several bots (`token` and `bots`): each answers to its own token only,
 * has its own webhook, and its file ids are its own (another bot's file_id is invalid). Steering
 * names a bot by its id (the token's part before ':'), the first bot by default.
 */

/** A bot the simulator serves. */
export interface SimulatedBot {
  /** Its token; a call with any token no bot has answers 401 Unauthorized. */
  token: string;
  /** Bot's username (getMe). */
  username?: string;
  /** A webhook already set (the demo: the seeded channel's address and secret), as setWebhook would. */
  webhook?: { url: string; secret: string | null };
}

export interface TelegramSimulatorOptions extends SimulatedBot {
  /** More bots served beside the first (`token`). */
  bots?: SimulatedBot[];
  host?: string;
  port?: number;
}

/** A contact writing to the bot: a Telegram user (the chat id of a private chat is the user's id). */
export interface SimulatedContact {
  id: number;
  firstName: string;
  lastName?: string;
  username?: string;
}

export interface SimulatedInbound {
  from: SimulatedContact;
  /** The bot written to, by id (the first bot by default). */
  botId?: number;
  text?: string;
  caption?: string;
  photo?: Buffer;
  document?: { bytes: Buffer; filename: string; mimeType: string };
  voice?: Buffer;
  /** A shared point; with `venue`, a place with its name and address. */
  location?: { latitude: number; longitude: number; venue?: { title: string; address: string } };
  /** A shared contact card. */
  contact?: { phone_number: string; first_name: string; last_name?: string };
  /** A poll the contact sent (a kind the desk cannot show). */
  poll?: { question: string; options: string[] };
}

/** A send call it answered. */
export interface TelegramSend {
  /** The bot whose token sent it. */
  botId: number;
  method: string;
  chatId: string;
  text: string | null;
  caption: string | null;
  /** The attachment: uploaded bytes, or the link the bot gave. */
  file: { filename: string | null; contentType: string | null; bytes: Buffer } | { url: string } | null;
  answeredStatus: number;
  messageId: number | null;
}

export interface TelegramSimulator {
  readonly baseUrl: string;
  /** What setWebhook registered for the bot (the first by default). */
  webhook(botId?: number): { url: string; secret: string | null } | null;
  sent(): TelegramSend[];
  /** Answers the next `count` calls with `status` and `description` (Bot API error body). */
  failNext(count: number, status: number, description?: string): void;
  /** Answers the next `count` calls 429 with parameters.retry_after. */
  rateLimitNext(count: number, retryAfter?: number): void;
  /** Posts a contact's message as an update to the bot's registered webhook; answers the update. */
  sendInbound(inbound: SimulatedInbound): Promise<Record<string, unknown>>;
  /** Posts an update as is (a repeated delivery) to the bot's webhook (the first by default); answers the webhook's status. */
  postUpdate(update: Record<string, unknown>, secret?: string | null, botId?: number): Promise<number>;
  reset(): void;
  close(): Promise<void>;
}

const MAX_TEXT = 4096;
const MAX_CAPTION = 1024;
const MAX_RECORDED = 10_000;
const SEND_FIELDS: Record<string, string> = {
  sendPhoto: 'photo',
  sendDocument: 'document',
  sendVoice: 'voice',
  sendAudio: 'audio',
  sendVideo: 'video',
};
const error = (status: number, description: string, parameters?: object) => ({
  ok: false,
  error_code: status,
  description,
  ...(parameters ? { parameters } : {}),
});
const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden: bot was blocked by the user',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};

type StoredFile = { path: string; bytes: Buffer; contentType: string };
interface Bot {
  id: number;
  token: string;
  user: { id: number; is_bot: true; first_name: string; username: string };
  hook: { url: string; secret: string | null } | null;
  /** file_id → file: a bot's file ids are its own. */
  files: Map<string, StoredFile>;
}

export async function startTelegramSimulator(options: TelegramSimulatorOptions): Promise<TelegramSimulator> {
  const bots: Bot[] = [options, ...(options.bots ?? [])].map((b, i) => {
    const id = Number(b.token.split(':')[0]) || 7000000001 + i;
    return {
      id,
      token: b.token,
      user: { id, is_bot: true, first_name: 'Atende', username: b.username ?? (i === 0 ? 'atende_demo_bot' : `atende_bot_${id}`) },
      hook: b.webhook?.url ? b.webhook : null,
      files: new Map(),
    };
  });
  const botOf = (botId: number = bots[0]!.id) => {
    const bot = bots.find((b) => b.id === botId);
    if (!bot) throw Object.assign(new Error(`No bot with id ${botId}`), { statusCode: 400 });
    return bot;
  };
  const sent: TelegramSend[] = [];
  const plan: { status: number; body: unknown }[] = [];
  let updateId = 100_000;
  let messageId = 1;
  let fileCount = 0;

  const app = Fastify({ logger: false, bodyLimit: 60 * 1024 * 1024, forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_r, body, done) => done(null, body));
  let address = '';

  const keepFile = (bot: Bot, bytes: Buffer, contentType: string, folder: string, extension: string) => {
    const id = `AgAC${randomBytes(12).toString('base64url')}`;
    bot.files.set(id, { path: `${folder}/file_${++fileCount}.${extension}`, bytes, contentType });
    return { file_id: id, file_unique_id: `AQAD${fileCount}`, file_size: bytes.length };
  };

  /** Fields of a call: JSON, form-encoded or multipart (with the uploaded files). */
  function fieldsOf(request: FastifyRequest): {
    fields: Record<string, unknown>;
    uploads: Map<string, { filename: string | null; contentType: string | null; bytes: Buffer }>;
  } | null {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const type = String(request.headers['content-type'] ?? '');
    const uploads = new Map<string, { filename: string | null; contentType: string | null; bytes: Buffer }>();
    const query = Object.fromEntries(new URLSearchParams(request.url.split('?')[1] ?? ''));
    if (type.startsWith('multipart/form-data')) {
      const parts = parseMultipart(raw, type);
      if (!parts) return null;
      const fields: Record<string, unknown> = { ...query };
      for (const p of parts) {
        if (p.filename !== null) uploads.set(p.name, { filename: p.filename, contentType: p.contentType, bytes: p.bytes });
        else fields[p.name] = p.bytes.toString('utf8');
      }
      return { fields, uploads };
    }
    if (type.startsWith('application/x-www-form-urlencoded'))
      return { fields: { ...query, ...Object.fromEntries(new URLSearchParams(raw.toString('utf8'))) }, uploads };
    if (raw.length === 0) return { fields: query, uploads };
    try {
      const parsed: unknown = JSON.parse(raw.toString('utf8'));
      return parsed && typeof parsed === 'object' ? { fields: { ...query, ...(parsed as Record<string, unknown>) }, uploads } : null;
    } catch {
      return null;
    }
  }

  const chatOf = (chatId: string) => ({ id: Number(chatId), type: 'private' });

  function send(
    bot: Bot,
    method: string,
    fields: Record<string, unknown>,
    uploads: Map<string, { filename: string | null; contentType: string | null; bytes: Buffer }>,
    reply: FastifyReply,
  ): FastifyReply {
    const chatId = String(fields.chat_id ?? '');
    const record = (status: number, id: number | null, file: TelegramSend['file'] = null) => {
      sent.push({
        botId: bot.id,
        method,
        chatId,
        text: typeof fields.text === 'string' ? fields.text : null,
        caption: typeof fields.caption === 'string' ? fields.caption : null,
        file,
        answeredStatus: status,
        messageId: id,
      });
      if (sent.length > MAX_RECORDED) sent.splice(0, sent.length - MAX_RECORDED);
    };
    const refuse = (status: number, description: string) => {
      record(status, null);
      return reply.code(status).send(error(status, description));
    };
    if (!/^-?\d{1,20}$/.test(chatId)) return refuse(400, 'Bad Request: chat not found');
    const base = { message_id: messageId, from: bot.user, chat: chatOf(chatId), date: Math.floor(Date.now() / 1000) };
    if (method === 'sendMessage') {
      const text = typeof fields.text === 'string' ? fields.text : '';
      if (!text.trim()) return refuse(400, 'Bad Request: message text is empty');
      if (text.length > MAX_TEXT) return refuse(400, 'Bad Request: message is too long');
      record(200, messageId);
      return reply.send({ ok: true, result: { ...base, message_id: messageId++, text } });
    }
    const field = SEND_FIELDS[method]!;
    if (typeof fields.caption === 'string' && fields.caption.length > MAX_CAPTION)
      return refuse(400, 'Bad Request: message caption is too long');
    const upload = uploads.get(field);
    const link = typeof fields[field] === 'string' ? (fields[field] as string) : null;
    if (!upload && !link) return refuse(400, `Bad Request: there is no ${field} in the request`);
    if (upload && upload.bytes.length === 0) return refuse(400, 'Bad Request: file must be non-empty');
    const kept = upload
      ? keepFile(
          bot,
          upload.bytes,
          upload.contentType ?? 'application/octet-stream',
          `${field}s`,
          (upload.filename ?? 'bin').split('.').pop() ?? 'bin',
        )
      : { file_id: `link-${messageId}`, file_unique_id: 'link' };
    record(200, messageId, upload ?? { url: link! });
    const media =
      field === 'photo'
        ? { photo: [{ ...kept, width: 90, height: 90 }] }
        : {
            [field]: { ...kept, ...(upload?.filename ? { file_name: upload.filename } : {}), mime_type: upload?.contentType ?? undefined },
          };
    return reply.send({
      ok: true,
      result: { ...base, message_id: messageId++, ...media, ...(fields.caption ? { caption: fields.caption } : {}) },
    });
  }

  /** /bot<token>/<method>: auth first, then a planned answer, then the method. */
  app.all('/bot*', (request, reply) => {
    const match = /^\/bot([^/]+)\/([A-Za-z]+)(?:\?.*)?$/.exec(request.url);
    if (!match) return reply.code(404).send(error(404, 'Not Found'));
    const [, token, method] = match as unknown as [string, string, string];
    const bot = bots.find((b) => sameSecret(token, b.token));
    if (!bot) return reply.code(401).send(error(401, 'Unauthorized'));
    const planned = plan.shift();
    if (planned) return reply.code(planned.status).send(planned.body);
    const parsed = fieldsOf(request);
    if (!parsed) return reply.code(400).send(error(400, "Bad Request: can't parse request body"));
    const { fields, uploads } = parsed;
    switch (method) {
      case 'getMe':
        return reply.send({
          ok: true,
          result: { ...bot.user, can_join_groups: true, can_read_all_group_messages: false, supports_inline_queries: false },
        });
      case 'setWebhook': {
        const url = typeof fields.url === 'string' ? fields.url : '';
        const secret = typeof fields.secret_token === 'string' ? fields.secret_token : null;
        if (secret !== null && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return reply.code(400).send(error(400, 'Bad Request: secret token contains unallowed characters'));
        // The real API takes https on ports 443, 80, 88 and 8443 only; the simulator takes a local http address too.
        if (url && !/^https?:\/\//.test(url))
          return reply.code(400).send(error(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook'));
        bot.hook = url ? { url, secret } : null;
        return reply.send({ ok: true, result: true, description: url ? 'Webhook was set' : 'Webhook was deleted' });
      }
      case 'deleteWebhook':
        bot.hook = null;
        return reply.send({ ok: true, result: true, description: 'Webhook was deleted' });
      case 'getWebhookInfo':
        return reply.send({ ok: true, result: { url: bot.hook?.url ?? '', has_custom_certificate: false, pending_update_count: 0 } });
      case 'getFile': {
        const file = bot.files.get(String(fields.file_id ?? ''));
        if (!file) return reply.code(400).send(error(400, 'Bad Request: invalid file_id'));
        return reply.send({
          ok: true,
          result: { file_id: fields.file_id, file_unique_id: 'u', file_size: file.bytes.length, file_path: file.path },
        });
      }
      default:
        if (method === 'sendMessage' || SEND_FIELDS[method]) return send(bot, method, fields, uploads, reply);
        return reply.code(404).send(error(404, 'Not Found'));
    }
  });

  app.get('/file/bot*', (request, reply) => {
    const match = /^\/file\/bot([^/]+)\/(.+)$/.exec(request.url.split('?')[0] ?? '');
    const bot = match ? bots.find((b) => sameSecret(match[1], b.token)) : undefined;
    if (!match || !bot) return reply.code(404).send(error(404, 'Not Found'));
    const path = decodeURIComponent(match[2]!);
    const file = [...bot.files.values()].find((f) => f.path === path);
    if (!file) return reply.code(404).send(error(404, 'Not Found'));
    return reply.type('application/octet-stream').send(file.bytes);
  });

  async function postUpdate(update: Record<string, unknown>, given?: string | null, botId?: number): Promise<number> {
    const hook = botOf(botId).hook;
    if (!hook) throw new Error('No webhook is set (setWebhook)');
    const secret = given === undefined ? hook.secret : given;
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}) },
      body: JSON.stringify(update),
    });
    await res.arrayBuffer();
    return res.status;
  }

  async function sendInbound(inbound: SimulatedInbound): Promise<Record<string, unknown>> {
    const bot = botOf(inbound.botId);
    const user = {
      id: inbound.from.id,
      is_bot: false,
      first_name: inbound.from.firstName,
      ...(inbound.from.lastName ? { last_name: inbound.from.lastName } : {}),
      ...(inbound.from.username ? { username: inbound.from.username } : {}),
      language_code: 'pt-br',
    };
    const message: Record<string, unknown> = {
      message_id: messageId++,
      from: user,
      chat: { id: user.id, first_name: user.first_name, type: 'private' },
      date: Math.floor(Date.now() / 1000),
    };
    if (inbound.text !== undefined) message.text = inbound.text;
    if (inbound.caption !== undefined) message.caption = inbound.caption;
    if (inbound.photo) {
      const full = keepFile(bot, inbound.photo, 'image/jpeg', 'photos', 'jpg');
      const thumb = keepFile(bot, inbound.photo.subarray(0, Math.min(inbound.photo.length, 16)), 'image/jpeg', 'photos', 'jpg');
      message.photo = [
        { ...thumb, width: 90, height: 60 },
        { ...full, width: 1280, height: 853 },
      ];
    }
    if (inbound.document)
      message.document = {
        ...keepFile(
          bot,
          inbound.document.bytes,
          inbound.document.mimeType,
          'documents',
          inbound.document.filename.split('.').pop() ?? 'bin',
        ),
        file_name: inbound.document.filename,
        mime_type: inbound.document.mimeType,
      };
    if (inbound.voice)
      message.voice = { ...keepFile(bot, inbound.voice, 'audio/ogg', 'voice', 'oga'), duration: 2, mime_type: 'audio/ogg' };
    if (inbound.location) {
      const { latitude, longitude, venue } = inbound.location;
      message.location = { latitude, longitude };
      if (venue) message.venue = { location: { latitude, longitude }, title: venue.title, address: venue.address };
    }
    if (inbound.contact) message.contact = inbound.contact;
    if (inbound.poll)
      message.poll = {
        id: String(updateId + 1),
        question: inbound.poll.question,
        options: inbound.poll.options.map((text) => ({ text, voter_count: 0 })),
        total_voter_count: 0,
        is_closed: false,
        is_anonymous: true,
        type: 'regular',
        allows_multiple_answers: false,
      };
    const update = { update_id: ++updateId, message };
    const status = await postUpdate(update, undefined, bot.id);
    if (status >= 300) throw new Error(`The webhook answered ${status}`);
    return update;
  }

  const planFailures = (count: number, status: number, body: unknown) => {
    for (let i = 0; i < Math.min(count, 10_000); i++) plan.push({ status, body });
  };

  // --- steering over HTTP (the demo, e2e) ---
  const steer = (request: FastifyRequest) => {
    try {
      return JSON.parse(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '{}') as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  // A steering call naming no bot it serves is the caller's mistake (400); a webhook that failed is a bad gateway.
  app.setErrorHandler((failure: Error & { statusCode?: number }, _request, reply) =>
    reply.code(failure.statusCode === 400 ? 400 : 502).send({ error_message: failure.message }),
  );
  app.post('/_simulator/inbound', async (request, reply) => {
    const b = steer(request) as {
      bot_id?: number;
      from?: Partial<SimulatedContact>;
      text?: string;
      caption?: string;
      photo_base64?: string;
      document?: { base64?: string; filename?: string; mime_type?: string };
      voice_base64?: string;
      location?: SimulatedInbound['location'];
      contact?: SimulatedInbound['contact'];
      poll?: SimulatedInbound['poll'];
    };
    if (typeof b.from?.id !== 'number' || typeof b.from.firstName !== 'string')
      return reply.code(400).send({ error_message: 'from.id (number) and from.firstName are required' });
    const update = await sendInbound({
      from: b.from as SimulatedContact,
      botId: typeof b.bot_id === 'number' ? b.bot_id : undefined,
      text: b.text,
      caption: b.caption,
      photo: b.photo_base64 ? Buffer.from(b.photo_base64, 'base64') : undefined,
      document: b.document
        ? {
            bytes: Buffer.from(b.document.base64 ?? '', 'base64'),
            filename: b.document.filename ?? 'file.bin',
            mimeType: b.document.mime_type ?? 'application/octet-stream',
          }
        : undefined,
      voice: b.voice_base64 ? Buffer.from(b.voice_base64, 'base64') : undefined,
      location: b.location,
      contact: b.contact,
      poll: b.poll,
    });
    return reply.send({ update });
  });
  app.post('/_simulator/plan', async (request, reply) => {
    const b = steer(request);
    const status = Number(b.status ?? 500);
    planFailures(
      Number(b.count ?? 1),
      status,
      error(status, typeof b.description === 'string' ? b.description : (DESCRIPTIONS[status] ?? 'Error')),
    );
    return reply.code(204).send();
  });
  app.get('/_simulator/sent', async () => ({
    sent: sent.map((s) => ({
      ...s,
      file:
        s.file && 'bytes' in s.file ? { filename: s.file.filename, contentType: s.file.contentType, size: s.file.bytes.length } : s.file,
    })),
  }));
  app.get<{ Querystring: { bot_id?: string } }>('/_simulator/webhook', async (request) => ({
    webhook: botOf(request.query.bot_id ? Number(request.query.bot_id) : undefined).hook,
  }));

  address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return {
    baseUrl: address,
    webhook: (botId) => botOf(botId).hook,
    sent: () => sent.slice(),
    failNext: (count, status, description) => planFailures(count, status, error(status, description ?? DESCRIPTIONS[status] ?? 'Error')),
    rateLimitNext: (count, retryAfter = 5) =>
      planFailures(count, 429, error(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter })),
    sendInbound,
    postUpdate,
    reset: () => {
      sent.length = 0;
      plan.length = 0;
    },
    close: () => app.close(),
  };
}
