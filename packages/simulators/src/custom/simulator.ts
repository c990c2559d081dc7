import Fastify, { type FastifyInstance } from 'fastify';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhookBody, CustomWebhookBodySchema, type CustomWebhookBody } from '@atende/channels';

/**
 * A stand-in for the system integrated through a custom API channel: it receives the webhook posts
 * of packages/channels/src/custom/adapter.ts, verifies their signature and records them, and can be
 * told to fail or to be slow for its next requests. Used by tests, benches and e2e; steerable
 * in-process (methods) or over HTTP (`/_simulator/*`) when it runs in another process.
 */

export interface SimulatedRequest {
  body: CustomWebhookBody;
  rawBody: string;
  idempotencyKey: string | null;
  timestamp: string | null;
  /** What the simulator answered: 200 (delivered) or the injected failure. */
  answeredStatus: number;
  receivedAt: Date;
}

interface PlannedAnswer {
  status: number;
  delayMs: number;
}

export interface CustomChannelSimulatorOptions {
  /** The channel's webhook secret: requests not signed with it are refused with 401. */
  secret: string;
  /**
   * Play a receiver that honours Idempotency-Key as our protocol asks (custom/adapter.ts): a
   * repeated key gets the id it got the first time. Off by default: a receiver may not honour it,
   * and then each request is a new message.
   */
  dedupeIdempotencyKey?: boolean;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
}

export interface CustomChannelSimulator {
  readonly app: FastifyInstance;
  /** The address to configure as the channel's webhook_url. */
  readonly webhookUrl: string;
  /** Every correctly signed request, in arrival order, whatever it was answered. */
  readonly requests: SimulatedRequest[];
  /** Requests refused for a missing or wrong signature or an invalid body. */
  readonly rejected: { reason: string; rawBody: string }[];
  /** Requests answered 2xx, i.e. messages the integrated system accepted. */
  delivered(): SimulatedRequest[];
  /** Answer the next `count` signed requests with `status` (e.g. 500, 429, 400). */
  failNext(count: number, status: number): void;
  /** Wait `delayMs` before answering the next `count` signed requests (200 after the wait). */
  slowNext(count: number, delayMs: number): void;
  /** Forget recorded requests and planned answers. */
  reset(): void;
  /** Resolves once at least `count` signed requests arrived (rejects after `timeoutMs`). */
  waitForRequests(count: number, timeoutMs?: number): Promise<SimulatedRequest[]>;
  close(): Promise<void>;
}

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value : null);

export async function startCustomChannelSimulator(options: CustomChannelSimulatorOptions): Promise<CustomChannelSimulator> {
  const requests: SimulatedRequest[] = [];
  const rejected: { reason: string; rawBody: string }[] = [];
  const plan: PlannedAnswer[] = [];
  const acceptedIds = new Map<string, string>();
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());

  // A test tool: closing must not wait for clients' keep-alive connections.
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  // The signature covers the exact bytes sent: keep the raw body, parse it ourselves.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.post('/webhook', async (request, reply) => {
    const rawBody = typeof request.body === 'string' ? request.body : '';
    if (!verifyWebhookBody(rawBody, request.headers[SIGNATURE_HEADER], options.secret)) {
      rejected.push({ reason: 'bad signature', rawBody });
      return reply.code(401).send({ error_message: 'Invalid signature' });
    }
    let parsed: CustomWebhookBody;
    try {
      parsed = CustomWebhookBodySchema.parse(JSON.parse(rawBody));
    } catch {
      rejected.push({ reason: 'invalid body', rawBody });
      return reply.code(422).send({ error_message: 'Invalid body' });
    }
    const answer = plan.shift() ?? { status: 200, delayMs: 0 };
    if (answer.delayMs > 0) await new Promise((r) => setTimeout(r, answer.delayMs));
    const idempotencyKey = header(request.headers['idempotency-key']);
    requests.push({
      body: parsed,
      rawBody,
      idempotencyKey,
      timestamp: header(request.headers[TIMESTAMP_HEADER]),
      answeredStatus: answer.status,
      receivedAt: new Date(),
    });
    notify();
    if (answer.status < 200 || answer.status >= 300) return reply.code(answer.status).send({ error_message: `Simulated ${answer.status}` });
    // A careful receiver (dedupeIdempotencyKey): a repeated Idempotency-Key gets the id it got the first time.
    const key = options.dedupeIdempotencyKey ? (idempotencyKey ?? parsed.message.uuid) : `request-${requests.length}`;
    const id = acceptedIds.get(key) ?? `sim-${acceptedIds.size + 1}`;
    acceptedIds.set(key, id);
    return reply.code(200).send({ id });
  });

  // Steering over HTTP, for benches and e2e running the simulator in another process.
  app.post<{ Body: string }>('/_simulator/plan', async (request, reply) => {
    const body = JSON.parse(request.body || '{}') as { count?: number; status?: number; delay_ms?: number };
    const count = Math.max(0, Math.min(10_000, Number(body.count ?? 1)));
    for (let i = 0; i < count; i++) plan.push({ status: Number(body.status ?? 200), delayMs: Number(body.delay_ms ?? 0) });
    return reply.code(204).send();
  });
  app.get('/_simulator/requests', async () => ({
    requests: requests.map((r) => ({ ...r, rawBody: undefined })),
    rejected: rejected.length,
  }));
  app.delete('/_simulator/requests', async (_request, reply) => {
    reset();
    return reply.code(204).send();
  });

  function reset() {
    requests.length = 0;
    rejected.length = 0;
    plan.length = 0;
    acceptedIds.clear();
  }

  const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  return {
    app,
    webhookUrl: `${address}/webhook`,
    requests,
    rejected,
    delivered: () => requests.filter((r) => r.answeredStatus >= 200 && r.answeredStatus < 300),
    failNext(count, status) {
      for (let i = 0; i < count; i++) plan.push({ status, delayMs: 0 });
    },
    slowNext(count, delayMs) {
      for (let i = 0; i < count; i++) plan.push({ status: 200, delayMs });
    },
    reset,
    waitForRequests(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          cleanup();
          resolve(requests.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`Simulator got ${requests.length} of ${count} expected requests within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => app.close(),
  };
}
