import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { sameSecret } from '../http';
import { hubSignature } from './graph';
import { registerMetaLogin, type SimulatedPage } from './login-simulator';

/**
 * A stand-in for Meta's Messenger Platform / Instagram messaging for tests, the e2e stack and the
 * demo: the Graph Send API ({version}/{page-id|me}/messages, page token as Bearer or access_token),
 * profile lookups ({version}/{psid}?fields=...), Graph error bodies ({error:{message, type, code,
 * error_subcode, fbtrace_id}}) including the 24-hour window (10/2018278) and rate limits (613),
 * and webhooks it posts signed with the app secret (X-Hub-Signature-256) after the hub.challenge
 * handshake. It plays contacts writing to the page. Steerable in-process or over HTTP (/_simulator/*).
 */

export interface MetaSimulatorOptions {
  /** 'page' (Messenger) or 'instagram': the webhook object and the text limit. */
  object: 'page' | 'instagram';
  pageId: string;
  pageToken: string;
  appSecret: string;
  /** Where webhooks are posted (the channel's address), and the verify token of its handshake. */
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
  text?: string;
  image?: Buffer;
  file?: { bytes: Buffer; filename: string; mimeType: string };
}

export interface MetaSend {
  recipient: string;
  text: string | null;
  attachment: { type: string; url: string } | null;
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
  /** A contact who wrote to the page at `lastMessageAt` (now by default), without a webhook. */
  addContact(contact: MetaContact, lastMessageAt?: Date): void;
  /** Moves a contact's last message back in time (the 24-hour window closes after it). */
  setLastMessageAt(contactId: string, at: Date): void;
  /** GET handshake against the webhook, as Meta does when the webhook is set: the answer's status and text. */
  verifyWebhook(): Promise<{ status: number; body: string }>;
  /** A contact's message posted, signed, to the webhook; answers the delivered body and the webhook's status. */
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
const graphError = (code: number, message: string, subcode?: number) => ({
  error: { message, type: code === 190 ? 'OAuthException' : 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: randomBytes(8).toString('base64url') },
});
const mid = () => `m_${randomBytes(18).toString('base64url')}`;

/** The demo user's pages: this simulator's page (linked to an Instagram account) and one without Instagram. */
export function defaultPages(options: Pick<MetaSimulatorOptions, 'pageId' | 'pageToken'>): SimulatedPage[] {
  const second = String(BigInt(options.pageId) + 1n);
  return [
    { id: options.pageId, name: 'Atende Demo', accessToken: options.pageToken, instagram: { id: `1784${options.pageId.slice(-11)}`, username: 'atende.demo' } },
    { id: second, name: 'Atende Outlet', accessToken: `${options.pageToken}-outlet` },
  ];
}

export async function startMetaSimulator(options: MetaSimulatorOptions): Promise<MetaSimulator> {
  const app = Fastify({ logger: false, bodyLimit: 30 * 1024 * 1024 });
  let webhook = options.webhook ?? null;
  const maxText = options.object === 'page' ? 2000 : 1000;
  let sent: MetaSend[] = [];
  let failures: { status: number; body: object }[] = [];
  const contacts = new Map<string, MetaContact>();
  const lastMessageAt = new Map<string, number>();
  const media = new Map<string, { bytes: Buffer; type: string }>();
  let baseUrl = '';

  const tokenOf = (request: FastifyRequest) => {
    const auth = request.headers.authorization;
    if (typeof auth === 'string' && auth.startsWith('Bearer ')) return auth.slice(7);
    return (request.query as Record<string, string | undefined>).access_token;
  };
  const refuseToken = (request: FastifyRequest, reply: FastifyReply) => {
    if (sameSecret(tokenOf(request), options.pageToken)) return false;
    void reply.code(400).send(graphError(190, 'Invalid OAuth access token - Cannot parse access token'));
    return true;
  };

  const answerSend = async (request: FastifyRequest<{ Params: { node: string } }>, reply: FastifyReply) => {
    if (refuseToken(request, reply)) return reply;
    if (request.params.node !== 'me' && request.params.node !== options.pageId) return reply.code(400).send(graphError(100, `(#100) Unsupported post request. Object with ID '${request.params.node}' does not exist`));
    const body = (request.body ?? {}) as { recipient?: { id?: unknown }; messaging_type?: unknown; message?: { text?: unknown; attachment?: { type?: unknown; payload?: { url?: unknown } } } };
    const recipient = typeof body.recipient?.id === 'string' ? body.recipient.id : '';
    const text = typeof body.message?.text === 'string' ? body.message.text : null;
    const attachment = body.message?.attachment && typeof body.message.attachment.payload?.url === 'string' ? { type: String(body.message.attachment.type), url: body.message.attachment.payload.url } : null;
    const record = (status: number, messageId: string | null) => {
      if (sent.length < MAX_RECORDED) sent.push({ recipient, text, attachment, answeredStatus: status, messageId });
    };
    const failure = failures.shift();
    if (failure) {
      record(failure.status, null);
      return reply.code(failure.status).send(failure.body);
    }
    if (!recipient || !contacts.has(recipient)) {
      record(400, null);
      return reply.code(400).send(graphError(100, '(#100) No matching user found', 2018001));
    }
    if (Date.now() - (lastMessageAt.get(recipient) ?? 0) > WINDOW_MS) {
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
    if (refuseToken(request, reply)) return reply;
    const contact = contacts.get(request.params.node);
    if (!contact) return reply.code(400).send(graphError(100, `(#100) Object with ID '${request.params.node}' does not exist`, 33));
    const name = [contact.firstName, contact.lastName].filter(Boolean).join(' ');
    return options.object === 'page' ? { first_name: contact.firstName, last_name: contact.lastName ?? '', id: contact.id } : { name, username: contact.firstName.toLowerCase(), id: contact.id };
  });

  app.get<{ Params: { name: string } }>('/_media/:name', async (request, reply) => {
    const file = media.get(request.params.name);
    if (!file) return reply.code(404).send(graphError(100, 'Not found'));
    return reply.type(file.type).send(file.bytes);
  });

  const signedPost = async (body: object, secret = options.appSecret): Promise<number> => {
    if (!webhook) throw new Error('The Meta simulator has no webhook');
    const raw = JSON.stringify(body);
    const response = await fetch(webhook.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, secret) }, body: raw });
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
  const envelope = (messaging: object) => ({ object: options.object, entry: [{ id: options.pageId, time: Date.now(), messaging: [messaging] }] });

  const sendInbound = async (inbound: MetaInbound) => {
    contacts.set(inbound.from.id, inbound.from);
    lastMessageAt.set(inbound.from.id, Date.now());
    const attachments: object[] = [];
    const keep = (bytes: Buffer, type: string, filename: string) => {
      const name = `${randomBytes(8).toString('hex')}-${filename.replace(/[^\w.-]/g, '_')}`;
      media.set(name, { bytes, type });
      return `${baseUrl}/_media/${name}`;
    };
    if (inbound.image) attachments.push({ type: 'image', payload: { url: keep(inbound.image, 'image/jpeg', 'image.jpg') } });
    if (inbound.file) attachments.push({ type: 'file', payload: { url: keep(inbound.file.bytes, inbound.file.mimeType, inbound.file.filename) } });
    const body = envelope({
      sender: { id: inbound.from.id },
      recipient: { id: options.pageId },
      timestamp: Date.now(),
      message: { mid: mid(), ...(inbound.text !== undefined ? { text: inbound.text } : {}), ...(attachments.length ? { attachments } : {}) },
    });
    return { body, status: await signedPost(body) };
  };

  // Steering over HTTP (the demo, the e2e stack): set the app's webhook as an admin does in Meta's
  // dashboard (kept only when the handshake echoes the challenge), play a contact, see what the page sent.
  app.post('/_simulator/webhook', async (request, reply) => {
    const body = (request.body ?? {}) as { url?: unknown; verify_token?: unknown };
    if (typeof body.url !== 'string' || typeof body.verify_token !== 'string') return reply.code(400).send({ error: 'url and verify_token are required' });
    const candidate = { url: body.url, verifyToken: body.verify_token };
    const answer = await handshake(candidate);
    if (!answer.ok) return reply.code(400).send({ error: `The callback URL or verify token couldn't be validated (${answer.status})` });
    webhook = candidate;
    return { webhook: { url: webhook.url } };
  });
  app.get('/_simulator/webhook', async () => ({ webhook: webhook ? { url: webhook.url } : null }));
  app.post('/_simulator/inbound', async (request) => {
    const body = (request.body ?? {}) as { id?: unknown; first_name?: unknown; last_name?: unknown; text?: unknown };
    const id = typeof body.id === 'string' && /^\d{1,40}$/.test(body.id) ? body.id : '7000000000000001';
    const from = { id, firstName: typeof body.first_name === 'string' ? body.first_name : 'Ana', ...(typeof body.last_name === 'string' ? { lastName: body.last_name } : {}) };
    const result = await sendInbound({ from, text: typeof body.text === 'string' ? body.text : 'Olá!' });
    return { webhook_status: result.status, message: result.body };
  });
  app.get('/_simulator/sent', async () => ({ sent }));
  const login = options.login ? registerMetaLogin(app, { appId: options.login.appId, appSecret: options.appSecret, pages: options.login.pages ?? defaultPages(options), userName: options.login.userName }) : null;

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
      for (let i = 0; i < count; i++) failures.push({ status: 400, body: graphError(613, '(#613) Calls to this api have exceeded the rate limit.') });
    },
    addContact: (contact, at = new Date()) => {
      contacts.set(contact.id, contact);
      lastMessageAt.set(contact.id, at.getTime());
    },
    setLastMessageAt: (contactId, at) => void lastMessageAt.set(contactId, at.getTime()),
    verifyWebhook: () => {
      if (!webhook) throw new Error('The Meta simulator has no webhook');
      return handshake(webhook);
    },
    sendInbound,
    sendDelivery: (contactId, mids) => signedPost(envelope({ sender: { id: contactId }, recipient: { id: options.pageId }, timestamp: Date.now(), delivery: { mids, watermark: Date.now() } })),
    sendRead: (contactId, watermark = new Date()) => signedPost(envelope({ sender: { id: contactId }, recipient: { id: options.pageId }, timestamp: Date.now(), read: { watermark: watermark.getTime() } })),
    postWebhook: (body, secret) => signedPost(body, secret),
    subscribed: () => login?.subscribed() ?? [],
    reset: () => {
      sent = [];
      failures = [];
    },
    close: () => app.close(),
  };
}
