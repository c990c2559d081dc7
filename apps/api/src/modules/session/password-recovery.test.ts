import { startEmailSimulator, type EmailSimulator } from '@atende/simulators/email';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestApp } from '../../testing';

// Forgot password by e-mail code, through a real SMTP server started here (the
// system transport is SMTP_URL). Neutral answer, 6-digit code, 15 minutes, 5 tries, single use,
// throttled per address and IP pair and per IP; the new password follows the admin reset's rules and ends every session.
let t: TestApp;
let smtp: EmailSimulator;
let acme: Awaited<ReturnType<TestApp['tenant']>>;

const forgot = (email: string, ip?: string) => {
  const req = t.http.post('/api/v1/password/forgot');
  return (ip ? req.set('X-Forwarded-For', ip) : req).send({ email });
};
const reset = (body: Record<string, unknown>) => t.http.post('/api/v1/password/reset').send(body);

/** The code of the latest mail to `to`, once more than `after` have come (the mail leaves in the background). */
async function codeFor(to: string, after = 0): Promise<string> {
  const mails = await vi.waitFor(
    () => {
      const sent = smtp.sent().filter((m) => m.envelopeTo.includes(to));
      expect(sent.length, `mails to ${to}`).toBeGreaterThan(after);
      return sent;
    },
    { timeout: 5000 },
  );
  return /\b(\d{6})\b/.exec(mails.at(-1)!.text)![1]!;
}

let markers = 0;
/**
 * Asks a code for another address and waits for its mail. Each mail is started as its request is
 * answered, so one that an earlier request had wrongly started was under way first and would have come too.
 */
async function laterMailCame(): Promise<void> {
  const marker = `marker${++markers}@beacon.test`;
  expect((await forgot(marker, `10.8.0.${markers}`)).status).toBe(202);
  await codeFor(marker);
}

beforeAll(async () => {
  smtp = await startEmailSimulator({ username: 'system@atende.test', password: 'smtp-pass' });
  t = await startTestApp({
    SMTP_URL: `smtp://system%40atende.test:smtp-pass@127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'Atende <no-reply@atende.test>',
    PASSWORD_RESET_MAX_PER_EMAIL: '3',
    PASSWORD_RESET_MAX_PER_IP: '10',
    TRUST_PROXY: 'true',
  });
  acme = await t.tenant('Acme');
  // The addresses whose mails mark that earlier requests' mails have left.
  await t.tenant('Beacon', { users: { marker1: ['agent'], marker2: ['agent'], marker3: ['agent'] } });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('forgot password by e-mail code', () => {
  it('tells the sign-in page that recovery is offered', async () => {
    const res = await t.http.get('/api/v1/login/options');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { password_recovery: true } });
  });

  it('answers an unknown address exactly as a known one, and mails only the known one', async () => {
    const known = await forgot('agent@acme.test', '10.0.0.1');
    const unknown = await forgot('nobody@acme.test', '10.0.0.1');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ data: { ok: true, expires_in: 900 } });
    const code = await codeFor('agent@acme.test');
    expect(code).toMatch(/^\d{6}$/);
    const mail = smtp.sent().find((m) => m.envelopeTo.includes('agent@acme.test'))!;
    expect(mail.from).toContain('no-reply@atende.test');
    await laterMailCame();
    expect(smtp.sent().some((m) => m.envelopeTo.includes('nobody@acme.test'))).toBe(false);
    // Hashed at rest: the code itself is nowhere in Redis.
    const stored = await t.redis.hgetall(`${t.env.REDIS_PREFIX}password-reset:agent@acme.test`);
    expect(JSON.stringify(stored)).not.toContain(code);
    expect(await t.redis.ttl(`${t.env.REDIS_PREFIX}password-reset:agent@acme.test`)).toBeGreaterThan(800);
  });

  it('sets the password with the right code once, ending every session through the admin reset path', async () => {
    const email = 'supervisor@acme.test';
    const sessionA = await t.login(email);
    const sessionB = await t.login(email);
    await forgot(email, '10.0.0.2');
    const code = await codeFor(email);
    const res = await reset({ email, code, password: 'newpass123' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { ok: true } });
    for (const token of [sessionA, sessionB]) {
      const me = await t.http.get('/api/v1/users/me').set('Authorization', `Bearer ${token}`);
      expect(me.status).toBe(401);
    }
    const revoked = await t.database.db.userSession.findMany({ where: { userId: acme.users.supervisor!.id } });
    expect(revoked.every((s) => s.revokedReason === 'password_recovery')).toBe(true);
    expect((await t.http.post('/api/v1/login').type('form').send({ email, password: TEST_PASSWORD })).status).toBe(401);
    expect((await t.http.post('/api/v1/login').type('form').send({ email, password: 'newpass123' })).status).toBe(200);
    // Used: the same code again is refused.
    const again = await reset({ email, code, password: 'otherpass123' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'reset_code_invalid', error_message: 'The code is wrong or has expired' });
  });

  it('refuses a wrong code, and voids the code after 5 wrong tries', async () => {
    const email = 'manager@acme.test';
    await forgot(email, '10.0.0.3');
    const code = await codeFor(email);
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 1; i <= 4; i++) {
      const res = await reset({ email, code: wrong, password: 'newpass123' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('reset_code_invalid');
    }
    const fifth = await reset({ email, code: wrong, password: 'newpass123' });
    expect(fifth.body).toMatchObject({ code: 'reset_code_attempts_exceeded', error_message: 'Too many wrong codes: ask for a new code' });
    // Even the right code no longer works.
    const right = await reset({ email, code, password: 'newpass123' });
    expect(right.status).toBe(400);
    expect(right.body.code).toBe('reset_code_attempts_exceeded');
    expect((await t.http.post('/api/v1/login').type('form').send({ email, password: TEST_PASSWORD })).status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const email = 'admin@acme.test';
    await forgot(email, '10.0.0.4');
    const code = await codeFor(email);
    await t.redis.pexpireat(`${t.env.REDIS_PREFIX}password-reset:${email}`, Date.now() - 1000);
    const res = await reset({ email, code, password: 'newpass123' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('reset_code_invalid');
  });

  it('applies the password rules of the admin reset, and checks every field', async () => {
    const email = 'agent2@acme.test';
    await forgot(email, '10.0.0.5');
    const code = await codeFor(email);
    for (const [password, message] of [
      ['short1', 'Password must have at least 8 characters'],
      ['lettersonly', 'Password must contain at least one number'],
      ['12345678', 'Password must contain letters'],
    ] as const) {
      const res = await reset({ email, code, password });
      expect(res.status).toBe(400);
      expect(res.body.error_message).toContain(message);
    }
    for (const body of [
      {},
      { email, code: '12345', password: 'newpass123' },
      { email, code: 'abcdef', password: 'newpass123' },
      { email: 'not-mail', code, password: 'newpass123' },
    ]) {
      const res = await reset(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error_message).toBeTruthy();
    }
    const bad = await forgot('not-an-email', '10.0.0.5');
    expect(bad.status).toBe(400);
    // Invalid bodies did not spend the code.
    expect((await reset({ email, code, password: 'newpass123' })).status).toBe(200);
  });

  // Throttled per address AND IP, so asking from elsewhere cannot lock the owner out.
  it('lets the owner recover from their own IP however often a third party asked from others, with the one code mailed', async () => {
    const email = 'owner@acme.test';
    for (let i = 0; i < 8; i++) expect((await forgot(email, `10.1.0.${i}`)).status).toBe(202);
    // The same pair again must wait: the third party is slowed, nobody else.
    const again = await forgot(email, '10.1.0.0');
    expect(again.status).toBe(429);
    expect(again.body).toMatchObject({
      code: 'password_recovery_rate_limited',
      error_message: 'Too many password recovery requests, try again later',
    });
    const owner = await forgot(email, '10.1.9.9');
    expect(owner.status).toBe(202);
    expect(owner.body).toEqual({ data: { ok: true, expires_in: 900 } });
    // Nine requests, one mail: the code mailed first is kept, not replaced by the later requests.
    const code = await codeFor(email);
    await laterMailCame();
    expect(smtp.sent().filter((m) => m.envelopeTo.includes(email))).toHaveLength(1);
    expect((await reset({ email, code, password: 'ownerpass123' })).status).toBe(200);
  });

  it('makes one address and IP pair wait longer after each request, and answers 429 with the wait', async () => {
    const wait = `${t.env.REDIS_PREFIX}password-reset-pair:ghost@acme.test|10.3.0.1:wait`;
    expect((await forgot('ghost@acme.test', '10.3.0.1')).status).toBe(202);
    const first = await forgot('ghost@acme.test', '10.3.0.1');
    expect(first.status).toBe(429);
    expect(first.body.params.retry_after_seconds).toBe(30);
    // Past the wait (shortened here), the next request goes through and the wait after it doubles.
    await t.redis.del(wait);
    expect((await forgot('ghost@acme.test', '10.3.0.1')).status).toBe(202);
    expect((await forgot('ghost@acme.test', '10.3.0.1')).body.params.retry_after_seconds).toBe(60);
    await t.redis.del(wait);
    expect((await forgot('ghost@acme.test', '10.3.0.1')).status).toBe(202);
    expect((await forgot('ghost@acme.test', '10.3.0.1')).body.params.retry_after_seconds).toBe(120);
  });

  it('mails a new code only once the last one is spent, and at most PASSWORD_RESET_MAX_PER_EMAIL a window', async () => {
    const email = 'campaigns@acme.test';
    const mails = () => smtp.sent().filter((m) => m.envelopeTo.includes(email)).length;
    const voidCode = async (code: string) => {
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++) await reset({ email, code: wrong, password: 'newpass123' });
    };
    let ip = 0;
    for (let round = 1; round <= 3; round++) {
      await forgot(email, `10.4.0.${ip++}`);
      await forgot(email, `10.4.0.${ip++}`);
      const code = await codeFor(email, round - 1);
      expect(mails()).toBe(round);
      await voidCode(code);
    }
    // The window's three codes are spent: asking still answers the same, and mails nothing.
    expect((await forgot(email, `10.4.0.${ip++}`)).status).toBe(202);
    await laterMailCame();
    expect(mails()).toBe(3);
  });

  it('limits one IP over every address with 429', async () => {
    for (let i = 0; i < 10; i++) expect((await forgot(`someone${i}@acme.test`, '10.2.0.1')).status).toBe(202);
    expect((await forgot('someone-else@acme.test', '10.2.0.1')).status).toBe(429);
  });
});

describe('without a mail transport', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp({}, { shareWith: t });
  });
  afterAll(() => plain.close());

  it('offers no recovery and refuses its calls', async () => {
    expect((await plain.http.get('/api/v1/login/options')).body).toEqual({ data: { password_recovery: false } });
    const res = await plain.http.post('/api/v1/password/forgot').send({ email: 'agent@acme.test' });
    expect(res.status).toBe(404);
    expect(res.body.error_message).toBe('Password recovery by e-mail is not configured');
  });
});
