import { AppError, routes, type RouteDef } from '@atende/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkErrorCodes, startTestApp, type TestApp } from '../testing';
import { registerErrorHandler } from './errors';

// OpenAPI is generated from the contract and served at /api/docs.
let t: TestApp;
let acme: Awaited<ReturnType<TestApp['tenant']>>;

beforeAll(async () => {
  t = await startTestApp();
  acme = await t.tenant('Acme');
});
afterAll(() => t.close());

describe('GET /api/docs/json', () => {
  it('lists every route of the contract with its method, summary and success response', async () => {
    const res = await t.http.get('/api/docs/json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<
      string,
      Record<string, { summary?: string; operationId?: string; responses?: Record<string, unknown> }>
    >;
    const missing: string[] = [];
    for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
      const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const op = paths[path]?.[route.method.toLowerCase()];
      if (!op) {
        missing.push(`${name}: ${route.method} ${path}`);
        continue;
      }
      expect(op.summary, name).toBe(route.summary);
      // The route's name is its operationId, which client generators name the call by.
      expect(op.operationId, name).toBe(name);
      if (route.response) expect(Object.keys(op.responses ?? {}), name).toContain(String(route.status ?? 200));
    }
    expect(missing).toEqual([]);
    // Unique across the document, as OpenAPI requires.
    const ids = Object.values(paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    const named = ids.filter((id): id is string => typeof id === 'string');
    expect(new Set(named).size).toBe(named.length);
  });

  it("lists each operation's error answers: the ErrorBody with the codes it can carry", async () => {
    const res = await t.http.get('/api/docs/json');
    type Op = {
      responses: Record<string, { description?: string; content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }>;
    };
    const op = (path: string, method: string) => (res.body.paths as Record<string, Record<string, Op>>)[path]![method]!;
    const remove = op('/api/v1/users/{id}', 'delete').responses;
    // A session route with a path id: validation, session, permission and unknown id, plus its own codes.
    expect(Object.keys(remove)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    expect(remove['404']!.description).toContain('user_not_found');
    expect(remove['400']!.description).toContain('own_user_kept');
    expect(remove['403']!.description).toContain('owner_remove_owner_only');
    expect(Object.keys(remove['404']!.content!['application/json']!.schema!.properties!)).toEqual(
      expect.arrayContaining(['error_message', 'code', 'params', 'fields']),
    );
    expect(op('/api/v1/bots', 'post').responses['409']!.description).toContain('bot_name_taken');
    expect(Object.keys(op('/api/v1/users', 'post').responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409']));
    // An open route answers no permission failure (its 403 is only a cookie write from another site); its 401 and 429 are its own codes.
    const login = op('/api/v1/login', 'post').responses;
    expect(login['403']!.description).toBe('Error. Codes: origin_not_allowed');
    expect(login['401']!.description).toBe('Error. Codes: invalid_credentials');
    expect(login['429']!.description).toBe('Error. Codes: login_rate_limited');
    // Every operation of the contract may fail unexpectedly, or while Postgres or Redis is out of reach.
    for (const route of Object.values(routes) as RouteDef[]) {
      const { responses } = op(route.path.replace(/:([A-Za-z_]+)/g, '{$1}'), route.method.toLowerCase());
      expect(responses['500']?.description, `${route.method} ${route.path}`).toBe('Error. Codes: internal');
      expect(responses['503']?.description, `${route.method} ${route.path}`).toMatch(/^Error\. Codes: dependency_unavailable\b/);
    }
  });

  it("lists each route's own failures by their statuses", async () => {
    const res = await t.http.get('/api/docs/json');
    type Responses = Record<string, { description?: string }>;
    const codes = (path: string, method: string, status: number): string[] => {
      const responses = (res.body.paths as Record<string, Record<string, { responses: Responses }>>)[path]![method]!.responses;
      return (responses[String(status)]?.description ?? '').replace('Error. Codes: ', '').split(', ');
    };
    expect(codes('/api/v1/campaign/{id}', 'patch', 400)).toEqual(
      expect.arrayContaining(['validation_failed', 'campaign_schedule_past', 'campaign_schedule_locked', 'dnd_list_required']),
    );
    expect(codes('/api/v1/campaign/{id}', 'patch', 422)).toEqual(expect.arrayContaining(['campaign_template_deleted_edit']));
    expect(codes('/api/v1/campaign', 'post', 400)).toContain('campaign_schedule_past');
    expect(codes('/api/v1/campaign/{id}/desired_state', 'post', 422)).toEqual(
      expect.arrayContaining(['campaign_no_subscribers', 'campaign_template_not_approved']),
    );
    // A transfer, by PATCH or PUT: the target agent's capacity and presence.
    for (const method of ['patch', 'put']) {
      expect(codes('/api/v1/conversations/{id}', method, 409)).toEqual(
        expect.arrayContaining(['agent_at_capacity', 'agent_not_online', 'conversation_already_finished']),
      );
      expect(codes('/api/v1/conversations/{id}', method, 403)).toEqual(expect.arrayContaining(['forbidden', 'conversation_not_yours']));
    }
    expect(codes('/api/v1/conversations/{id}/messages', 'post', 409)).toEqual(
      expect.arrayContaining(['conversation_not_active', 'conversation_awaiting_client']),
    );
    // Routes open to a widget or a channel: their own refusals, no session's.
    expect(codes('/api/v1/livechat/messages', 'get', 401).sort()).toEqual([
      'chat_session_invalid',
      'chat_session_other_channel',
      'chat_session_required',
    ]);
    expect(codes('/api/v1/livechat/messages', 'get', 429)).toEqual(['rate_limited']);
    expect(codes('/api/v1/channels/droz/{id}/messages', 'post', 401)).toEqual(['channel_token_invalid']);
    // An upload carries its file without a body schema: a body's failures all the same, and the file's own.
    expect(codes('/api/v1/storage/files', 'post', 400)).toEqual(
      expect.arrayContaining(['validation_failed', 'json_invalid', 'file_empty']),
    );
    expect(codes('/api/v1/storage/files', 'post', 413)).toEqual(['payload_too_large']);
    expect(codes('/api/v1/storage/files', 'post', 415).sort()).toEqual([
      'file_content_mismatch',
      'file_type_not_allowed',
      'unsupported_media_type',
    ]);
  });

  it('documents the bearer and cookie sessions, and login as open', async () => {
    const res = await t.http.get('/api/docs/json');
    expect(Object.keys(res.body.components.securitySchemes)).toEqual(expect.arrayContaining(['bearer', 'cookie']));
    expect(res.body.paths['/api/v1/login'].post.security).toEqual([]);
    expect(res.body.paths['/api/v1/users/me'].get.security).toEqual([{ bearer: [] }, { cookie: [] }]);
  });
});

describe('an error code the OpenAPI document does not list, in the tests', () => {
  it('turns the answer into a 500 naming the route and the code, kept for close() to fail on', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    const undeclared = checkErrorCodes(app, null);
    app.get('/probe/:mode', { schema: { summary: 'probe' }, config: { errors: ['campaign_not_found'] } }, async (request) => {
      const { mode } = request.params as { mode: string };
      throw new AppError(mode === 'listed' ? 'campaign_not_found' : 'campaign_running_delete', 'Probe');
    });
    try {
      const listed = await app.inject({ method: 'GET', url: '/probe/listed' });
      expect(listed.statusCode).toBe(404);
      expect(listed.json()).toMatchObject({ code: 'campaign_not_found' });
      expect(undeclared).toEqual([]);
      const unlisted = await app.inject({ method: 'GET', url: '/probe/unlisted' });
      expect(unlisted.statusCode).toBe(500);
      expect(unlisted.json()).toMatchObject({ code: 'internal', error_message: expect.stringContaining('GET /probe/:mode') });
      expect(undeclared).toEqual([expect.stringContaining('409 campaign_running_delete')]);
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/health', () => {
  it('answers without a session that Postgres and Redis are reachable', async () => {
    const res = await t.http.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', postgres: true, redis: true, version: expect.any(String) });
  });
});

describe('password hashes', () => {
  // A password hash must never leave the server, whatever the call.
  it('never appear in any answer', async () => {
    const bodies: unknown[] = [];
    const login = await t.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: 'secret123' });
    bodies.push(login.body, login.headers);
    const admin = login.body.token as string;
    const supervisor = await t.login('supervisor@acme.test');
    const agent = await t.login('agent@acme.test');
    const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
    bodies.push(
      (await t.http.get('/api/v1/users/me').set(auth(admin))).body,
      (await t.http.get('/api/v1/users').set(auth(admin))).body,
      (await t.http.patch('/api/v1/users/me').set(auth(agent)).send({ current_pause_uuid: acme.pauses[0]!.id })).body,
      (
        await t.http
          .patch(`/api/v1/users/${acme.users.supervisor!.id}`)
          .set(auth(supervisor))
          .send({ password: 'newpass123', old_password: 'secret123' })
      ).body,
      (await t.http.patch(`/api/v1/users/${acme.users.agent2!.id}`).set(auth(supervisor)).send({ state: 'offline' })).body,
      (await t.http.patch(`/api/v1/users/${acme.users.agent!.id}`).set(auth(agent)).send({ password: 'x', old_password: 'y' })).body,
      (await t.http.get('/api/v1/users/me/login_qr_code').set(auth(agent))).body,
      (await t.http.get('/api/v1/tenants/me').set(auth(admin))).body,
      (await t.http.get('/api/v1/workspaces/me').set(auth(admin))).body,
      (await t.http.post('/api/v1/login').type('form').send({ email: 'admin@acme.test', password: 'wrong' })).body,
    );
    const text = JSON.stringify(bodies);
    expect(text).not.toMatch(/argon2|password_?hash/i);
    expect(text).not.toContain('secret123');
  });
});
