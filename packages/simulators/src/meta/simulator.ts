import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { sameSecret, hubSignature } from '@atende/channels';
import { registerMetaLogin, type SimulatedPage } from './login-simulator';

/**
 * A stand-in for Meta's Messenger Platform / Instagram messaging for tests, the e2e stack and the
 * demo: the Graph Send API ({version}/{page-id|me}/messages, page token as Bearer or access_token),
 * profile lookups ({version}/{psid}?fields=...), Graph error bodies ({error:{message, type, code,
 * error_subcode, fbtrace_id}}) including the 24-hour window (10/2018278) and rate limits (613),
 * and webhooks it posts signed with the app secret (X-Hub-Signature-256) after the hub.challenge
 * handshake. It plays contacts writing to the page. Steerable in-process or over HTTP (/_simulator/*).
 *
 * Like Meta, it serves every page the simulated user manages (`pages`): each page answers to its own
 * token only, knows only the contacts who wrote to it (PSIDs are page-scoped) and has its own webhook
 * (the callback of the app that page is subscribed to). `pageId` names the page steering defaults to.
 */

export interface MetaSimulatorOptions {
  /** 'page' (Messenger) or 'instagram': the webhook object and the text limit. */
  object: 'page' | 'instagram';
  /** The page steering defaults to (webhook, contacts, receipts); always served. */
  pageId: string;
  pageToken: string;
  /** Every page served, each with its own token: login.pages, else defaultPages (this page and "Atende Outlet"). */
  pages?: SimulatedPage[];
  appSecret: string;
  /** Where the page's webhooks are posted (the channel's address), and the verify token of its handshake. */
  webhook?: { url: string; verifyToken: string };
  host?: string;
  port?: number;
  /** Also plays Meta's login (login-simulator.ts) for this app id; the pages default to this page and a second one. */
  login?: { appId: string; pages?: SimulatedPage[]; userName?: string };
}

export interface MetaContact {
  /** PSID (Messenger) or IGSID (Instagram). */
  id: string;
  firstName: string;
  lastName?: string;
}

export interface MetaInbound {
  from: MetaContact;
  /** The page written to (the simulator's page by default). */
  pageId?: string;
  text?: string;
  image?: Buffer;
  /** More images in the same message (Messenger sends each as one more attachment). */
  images?: Buffer[];
  file?: { bytes: Buffer; filename: string; mimeType: string };
  /** Instagram: the contact mentioned the account in a story (an image here). */
  storyMention?: Buffer;
  /** Instagram: the message answers one of the account's stories. */
  storyReply?: { url: string; id: string };
  /** A button of the page's menu or Get Started pressed: a postback rather than a message. */
  postback?: { title: string; payload: string };
}

export interface MetaSend {
  /** The page whose token sent it. */
  pageId: string;
  recipient: string;
  text: string | null;
  attachment: { type: string; url: string } | null;
  /** The message tag it was sent with (HUMAN_AGENT past the 24 hours), or null for a plain response. */
  tag: string | null;
  answeredStatus: number;
  messageId: string | null;
}

export interface MetaSimulator {
  readonly baseUrl: string;
  sent(): MetaSend[];
  /** Answers the next `count` send calls with a Graph error. */
  failNext(count: number, status: number, error: { code: number; message: string; error_subcode?: number }): void;
  /** Answers the next `count` send calls with the rate-limit error (613). */
  rateLimitNext(count: number): void;
  /** A contact who wrote to the page (the simulator's by default) at `lastMessageAt` (now by default), without a webhook. */
  addContact(contact: MetaContact, lastMessageAt?: Date, pageId?: string): void;
  /** Moves a contact's last message to the page back in time (the 24-hour window closes after it). */
  setLastMessageAt(contactId: string, at: Date, pageId?: string): void;
  /** GET handshake against the webhook, as Meta does when the webhook is set: the answer's status and text. */
  verifyWebhook(): Promise<{ status: number; body: string }>;
  /** A contact's message posted, signed, to the page's webhook; answers the delivered body and the webhook's status. */
  sendInbound(inbound: MetaInbound): Promise<{ body: Record<string, unknown>; status: number }>;
  /** Delivery receipt of page messages (mids). */
  sendDelivery(contactId: string, mids: string[]): Promise<number>;
  /** Read receipt (Messenger: a watermark; every page message up to then is read). */
  sendRead(contactId: string, watermark?: Date): Promise<number>;
  /** A body posted as is, signed with `secret` (the app secret unless given): a repeated or forged delivery. */
  postWebhook(body: Record<string, unknown>, secret?: string): Promise<number>;
  /** Page ids subscribed to the app through the login side (none without `login`). */
  subscribed(): string[];
  reset(): void;
  close(): Promise<void>;
}

const MAX_RECORDED = 10_000;
const WINDOW_MS = 24 * 3600_000;
/** The HUMAN_AGENT message tag: a person may answer for 7 days after the contact's last message. */
const HUMAN_AGENT_WINDOW_MS = 7 * 24 * 3600_000;
const graphError = (code: number, message: string, subcode?: number) => ({
  error: {
    message,
    type: code === 190 ? 'OAuthException' : 'OAuthException',
    code,
    ...(subcode ? { error_subcode: subcode } : {}),
    fbtrace_id: randomBytes(8).toString('base64url'),
  },
});
const mid = () => `m_${randomBytes(18).toString('base64url')}`;

/** The demo user's pages: this simulator's page (linked to an Instagram account) and one without Instagram. */
export function defaultPages(options: Pick<MetaSimulatorOptions, 'pageId' | 'pageToken'>): SimulatedPage[] {
  const second = String(BigInt(options.pageId) + 1n);
  return [
    {
      id: options.pageId,
      name: 'Atende Demo',
      accessToken: options.pageToken,
      instagram: { id: `1784${options.pageId.slice(-11)}`, username: 'atende.demo' },
    },
    { id: second, name: 'Atende Outlet', accessToken: `${options.pageToken}-outlet` },
  ];
}

export async function startMetaSimulator(options: MetaSimulatorOptions): Promise<MetaSimulator> {
  const app = Fastify({ logger: false, bodyLimit: 30 * 1024 * 1024 });
  const maxText = options.object === 'page' ? 2000 : 1000;
  let sent: MetaSend[] = [];
  let failures: { status: number; body: object }[] = [];
  const given = options.pages ?? options.login?.pages ?? defaultPages(options);
  const pages = given.some((p) => p.id === options.pageId)
    ? given
    : [{ id: options.pageId, name: 'Page', accessToken: options.pageToken }, ...given];
  const webhooks = new Map<string, { url: string; verifyToken: string }>(options.webhook ? [[options.pageId, options.webhook]] : []);
  /** Contacts and their last message, per page: `${pageId}/${psid}`. */
  const contacts = new Map<string, MetaContact>();
  const lastMessageAt = new Map<string, number>();
  const contactKey = (pageId: string, contactId: string) => `${pageId}/${contactId}`;
  const pageOf = (pageId: string = options.pageId) => {
    const page = pages.find((p) => p.id === pageId);
    if (!page) throw Object.assign(new Error(`The simulated user manages no page with ID ${pageId}`), { statusCode: 400 });
    return page;
  };
  const media = new Map<string, { bytes: Buffer; type: string }>();
  let baseUrl = '';

  const tokenOf = (request: FastifyRequest) => {
    const auth = request.headers.authorization;
    if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7);
    return (request.query as Record<string, string | undefined>).access_token;
  };
  /** The page whose token the call carries, or null once answered with Graph's invalid-token error. */
  const tokenPage = (request: FastifyRequest, reply: FastifyReply) => {
    const token = tokenOf(request);
    const page = pages.find((p) => sameSecret(token, p.accessToken));
    if (!page) void reply.code(400).send(graphError(190, 'Invalid OAuth access token - Cannot parse access token'));
    return page ?? null;
  };

  const answerSend = async (request: FastifyRequest<{ Params: { node: string } }>, reply: FastifyReply) => {
    const page = tokenPage(request, reply);
    if (!page) return reply;
    // A page token speaks for its own page only ('me' or its id).
    if (request.params.node !== 'me' && request.params.node !== page.id) {
      return reply
        .code(400)
        .send(
          graphError(
            100,
            `(#100) Unsupported post request. Object with ID '${request.params.node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
          ),
        );
    }
    const body = (request.body ?? {}) as {
      recipient?: { id?: unknown };
      messaging_type?: unknown;
      tag?: unknown;
      message?: { text?: unknown; attachment?: { type?: unknown; payload?: { url?: unknown } } };
    };
    const recipient = typeof body.recipient?.id === 'string' ? body.recipient.id : '';
    const text = typeof body.message?.text === 'string' ? body.message.text : null;
    const attachment =
      body.message?.attachment && typeof body.message.attachment.payload?.url === 'string'
        ? { type: String(body.message.attachment.type), url: body.message.attachment.payload.url }
        : null;
    const record = (status: number, messageId: string | null) => {
      const tag = body.messaging_type === 'MESSAGE_TAG' && typeof body.tag === 'string' ? body.tag : null;
      if (sent.length < MAX_RECORDED) sent.push({ pageId: page.id, recipient, text, attachment, tag, answeredStatus: status, messageId });
    };
    const failure = failures.shift();
    if (failure) {
      record(failure.status, null);
      return reply.code(failure.status).send(failure.body);
    }
    const key = contactKey(page.id, recipient);
    if (!recipient || !contacts.has(key)) {
      record(400, null);
      return reply.code(400).send(graphError(100, '(#100) No matching user found', 2018001));
    }
    const humanAgent = body.messaging_type === 'MESSAGE_TAG' && body.tag === 'HUMAN_AGENT';
    if (Date.now() - (lastMessageAt.get(key) ?? 0) > (humanAgent ? HUMAN_AGENT_WINDOW_MS : WINDOW_MS)) {
      record(400, null);
      return reply.code(400).send(graphError(10, '(#10) This message is sent outside of allowed window.', 2018278));
    }
    if (text === null && !attachment) {
      record(400, null);
      return reply.code(400).send(graphError(100, '(#100) param message must be non-empty.'));
    }
    if (text !== null && text.length > maxText) {
      record(400, null);
      return reply.code(400).send(graphError(100, `(#100) Length of param message[text] must be less than or equal to ${maxText}`));
    }
    const id = mid();
    record(200, id);
    return reply.send({ recipient_id: recipient, message_id: id });
  };

  app.post<{ Params: { version: string; node: string } }>('/:version/:node/messages', answerSend);

  app.get<{ Params: { version: string; node: string } }>('/:version/:node', async (request, reply) => {
    const page = tokenPage(request, reply);
    if (!page) return reply;
    const contact = contacts.get(contactKey(page.id, request.params.node));
    if (!contact) return reply.code(400).send(graphError(100, `(#100) Object with ID '${request.params.node}' does not exist`, 33));
    const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
    return options.object === 'page'
      ? { first_name: contact.firstName, last_name: contact.lastName ?? '', id: contact.id }
      : { name, username: contact.firstName.toLowerCase(), id: contact.id };
  });

  app.get<{ Params: { name: string } }>('/_media/:name', async (request, reply) => {
    const file = media.get(request.params.name);
    if (!file) return reply.code(404).send(graphError(100, 'Not found'));
    return reply.type(file.type).send(file.bytes);
  });

  const signedPost = async (body: object, secret = options.appSecret, pageId = options.pageId): Promise<number> => {
    const webhook = webhooks.get(pageOf(pageId).id);
    if (!webhook) throw new Error(`The Meta simulator has no webhook for the page ${pageId}`);
    const raw = JSON.stringify(body);
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, secret) },
      body: raw,
    });
    await response.arrayBuffer();
    return response.status;
  };
  /** Meta's GET handshake: the webhook must echo hub.challenge. */
  const handshake = async (target: { url: string; verifyToken: string }) => {
    const challenge = randomBytes(6).toString('hex');
    const query = new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': target.verifyToken, 'hub.challenge': challenge });
    const response = await fetch(`${target.url}?${query.toString()}`);
    const body = await response.text();
    return { status: response.status, body, ok: response.status === 200 && body === challenge };
  };
  const envelope = (messaging: object, pageId = options.pageId) => ({
    object: options.object,
    entry: [{ id: pageId, time: Date.now(), messaging: [messaging] }],
  });

  const sendInbound = async (inbound: MetaInbound) => {
    const pageId = pageOf(inbound.pageId).id;
    contacts.set(contactKey(pageId, inbound.from.id), inbound.from);
    lastMessageAt.set(contactKey(pageId, inbound.from.id), Date.now());
    const attachments: object[] = [];
    const keep = (bytes: Buffer, type: string, filename: string) => {
      const name = `${randomBytes(8).toString('hex')}-${filename.replace(/[^\w.-]/g, '_')}`;
      media.set(name, { bytes, type });
      return `${baseUrl}/_media/${name}`;
    };
    for (const image of [...(inbound.image ? [inbound.image] : []), ...(inbound.images ?? [])])
      attachments.push({ type: 'image', payload: { url: keep(image, 'image/jpeg', 'image.jpg') } });
    if (inbound.storyMention)
      attachments.push({ type: 'story_mention', payload: { url: keep(inbound.storyMention, 'image/jpeg', 'story.jpg') } });
    if (inbound.file)
      attachments.push({ type: 'file', payload: { url: keep(inbound.file.bytes, inbound.file.mimeType, inbound.file.filename) } });
    const body = envelope(
      {
        sender: { id: inbound.from.id },
        recipient: { id: pageId },
        timestamp: Date.now(),
        ...(inbound.postback
          ? { postback: { mid: mid(), title: inbound.postback.title, payload: inbound.postback.payload } }
          : {
              message: {
                mid: mid(),
                ...(inbound.text !== undefined ? { text: inbound.text } : {}),
                ...(attachments.length ? { attachments } : {}),
                ...(inbound.storyReply ? { reply_to: { story: inbound.storyReply } } : {}),
              },
            }),
      },
      pageId,
    );
    return { body, status: await signedPost(body, options.appSecret, pageId) };
  };

  const sendDelivery = (contactId: string, mids: string[]) =>
    signedPost(
      envelope({
        sender: { id: contactId },
        recipient: { id: options.pageId },
        timestamp: Date.now(),
        delivery: { mids, watermark: Date.now() },
      }),
    );
  const sendRead = (contactId: string, watermark = new Date()) =>
    signedPost(
      envelope({
        sender: { id: contactId },
        recipient: { id: options.pageId },
        timestamp: Date.now(),
        read: { watermark: watermark.getTime() },
      }),
    );

  // Steering over HTTP (the demo, the e2e stack): set a page's webhook as an admin does in Meta's
  // dashboard (kept only when the handshake echoes the challenge), play a contact writing to a page,
  // see what the pages sent. `page_id` picks the page (the simulator's page when absent; another answers 400).
  const steeredPage = (value: unknown) => pageOf(typeof value === 'string' && value ? value : undefined).id;
  app.post('/_simulator/webhook', async (request, reply) => {
    const body = (request.body ?? {}) as { url?: unknown; verify_token?: unknown; page_id?: unknown };
    if (typeof body.url !== 'string' || typeof body.verify_token !== 'string')
      return reply.code(400).send({ error: 'url and verify_token are required' });
    const pageId = steeredPage(body.page_id);
    const candidate = { url: body.url, verifyToken: body.verify_token };
    const answer = await handshake(candidate);
    if (!answer.ok) return reply.code(400).send({ error: `The callback URL or verify token couldn't be validated (${answer.status})` });
    webhooks.set(pageId, candidate);
    return { webhook: { url: candidate.url, page_id: pageId } };
  });
  app.get<{ Querystring: { page_id?: string } }>('/_simulator/webhook', async (request) => {
    const webhook = webhooks.get(steeredPage(request.query.page_id));
    return { webhook: webhook ? { url: webhook.url } : null };
  });
  app.post('/_simulator/inbound', async (request) => {
    const body = (request.body ?? {}) as {
      id?: unknown;
      first_name?: unknown;
      last_name?: unknown;
      text?: unknown;
      page_id?: unknown;
      postback?: unknown;
      images_base64?: unknown;
      story_mention_base64?: unknown;
      story_reply?: { url?: unknown; id?: unknown };
    };
    const bytesOf = (value: unknown): Buffer | undefined => (typeof value === 'string' && value ? Buffer.from(value, 'base64') : undefined);
    const images: Buffer[] = [];
    for (const value of Array.isArray(body.images_base64) ? body.images_base64 : []) {
      const bytes = bytesOf(value);
      if (bytes) images.push(bytes);
    }
    const storyMention = bytesOf(body.story_mention_base64);
    const storyReply =
      typeof body.story_reply?.url === 'string' && typeof body.story_reply.id === 'string'
        ? { url: body.story_reply.url, id: body.story_reply.id }
        : undefined;
    const id = typeof body.id === 'string' && /^\d{1,40}$/.test(body.id) ? body.id : '7000000000000001';
    const from = {
      id,
      firstName: typeof body.first_name === 'string' ? body.first_name : 'Ana',
      ...(typeof body.last_name === 'string' ? { lastName: body.last_name } : {}),
    };
    // `postback: "<title>"` plays a press of Get Started or a menu button (payload: the title upper-cased).
    const postback =
      typeof body.postback === 'string' && body.postback
        ? { title: body.postback, payload: body.postback.toUpperCase().replace(/\W+/g, '_') }
        : undefined;
    const media = images.length || storyMention;
    const result = await sendInbound({
      from,
      pageId: steeredPage(body.page_id),
      ...(postback ? { postback } : { text: typeof body.text === 'string' ? body.text : media ? undefined : 'Olá!' }),
      ...(images.length ? { image: images[0], images: images.slice(1) } : {}),
      ...(storyMention ? { storyMention } : {}),
      ...(storyReply ? { storyReply } : {}),
    });
    return { webhook_status: result.status, message: result.body };
  });
  // The next `count` sends answer a Graph error (`status`, `code`, `message`), as a refusal would.
  app.post('/_simulator/plan', async (request) => {
    const body = (request.body ?? {}) as { count?: unknown; status?: unknown; code?: unknown; message?: unknown };
    const count = typeof body.count === 'number' && body.count > 0 ? Math.min(body.count, 100) : 1;
    const status = typeof body.status === 'number' ? body.status : 400;
    const error = graphError(
      typeof body.code === 'number' ? body.code : 100,
      typeof body.message === 'string' ? body.message : '(#100) Invalid parameter',
    );
    for (let i = 0; i < count; i++) failures.push({ status, body: error });
    return { planned: count };
  });
  // A contact's app reports our messages delivered (`mids`) or read (every message up to now).
  app.post('/_simulator/delivery', async (request, reply) => {
    const body = (request.body ?? {}) as { id?: unknown; mids?: unknown };
    if (typeof body.id !== 'string' || !Array.isArray(body.mids) || !body.mids.every((m) => typeof m === 'string'))
      return reply.code(400).send({ error: 'id and mids (strings) are required' });
    return { webhook_status: await sendDelivery(body.id, body.mids as string[]) };
  });
  app.post('/_simulator/read', async (request, reply) => {
    const body = (request.body ?? {}) as { id?: unknown };
    if (typeof body.id !== 'string') return reply.code(400).send({ error: 'id is required' });
    return { webhook_status: await sendRead(body.id) };
  });
  app.get('/_simulator/sent', async () => ({ sent }));
  const login = options.login
    ? registerMetaLogin(app, { appId: options.login.appId, appSecret: options.appSecret, pages, userName: options.login.userName })
    : null;

  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  baseUrl = `http://${options.host ?? '127.0.0.1'}:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    baseUrl,
    sent: () => [...sent],
    failNext: (count, status, error) => {
      for (let i = 0; i < count; i++) failures.push({ status, body: graphError(error.code, error.message, error.error_subcode) });
    },
    rateLimitNext: (count) => {
      for (let i = 0; i < count; i++)
        failures.push({ status: 400, body: graphError(613, '(#613) Calls to this api have exceeded the rate limit.') });
    },
    addContact: (contact, at = new Date(), pageId = options.pageId) => {
      contacts.set(contactKey(pageOf(pageId).id, contact.id), contact);
      lastMessageAt.set(contactKey(pageId, contact.id), at.getTime());
    },
    setLastMessageAt: (contactId, at, pageId = options.pageId) => void lastMessageAt.set(contactKey(pageId, contactId), at.getTime()),
    verifyWebhook: () => {
      const webhook = webhooks.get(options.pageId);
      if (!webhook) throw new Error('The Meta simulator has no webhook');
      return handshake(webhook);
    },
    sendInbound,
    sendDelivery,
    sendRead,
    postWebhook: (body, secret) => signedPost(body, secret),
    subscribed: () => login?.subscribed() ?? [],
    reset: () => {
      sent = [];
      failures = [];
    },
    close: () => app.close(),
  };
}
