import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError } from '@atende/contract';
import { countLiveUsersWithEmail, liveAccountsWithEmail } from '@atende/db';
import { countInWindow } from '../../rate-window';
import type { AppContext } from '../../context';
import type { UserService } from '../users/service';
import type { ClientInfo } from './service';
import type { SystemMailer } from './system-mail';

export const RESET_CODE_TTL_SECONDS = 15 * 60;
/** Wrong tries one code takes before it is void. */
export const RESET_CODE_MAX_ATTEMPTS = 5;
/** The wait after one address and IP pair's first request; it doubles with each further request. */
export const RESET_PAIR_FIRST_WAIT_SECONDS = 30;

const INVALID = 'The code is wrong or has expired';
const EXHAUSTED = 'Too many wrong codes: ask for a new code';
const TOO_MANY = 'Too many password recovery requests, try again later';

/**
 * Issues a code unless the address already has a usable one (kept, not replaced: a request by
 * somebody else must not void the code in the owner's mailbox) or was mailed its most codes this
 * window. KEYS: the code hash, the address's mail counter. ARGV: digest, code ttl, max attempts,
 * max mails, window. 1 when a code was issued (and must be mailed).
 */
const ISSUE_CODE = `
if redis.call('HEXISTS', KEYS[1], 'hash') == 1 and tonumber(redis.call('HGET', KEYS[1], 'attempts') or '0') < tonumber(ARGV[3]) then return 0 end
if tonumber(redis.call('GET', KEYS[2]) or '0') >= tonumber(ARGV[4]) then return 0 end
redis.call('INCR', KEYS[2])
redis.call('EXPIRE', KEYS[2], ARGV[5], 'NX')
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'hash', ARGV[1], 'attempts', '0')
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Forgot password by e-mail code. The code is kept in Redis as an HMAC (never in
 * clear), for 15 minutes, with a count of wrong tries; a right one is taken (single use). The answer
 * never says whether the address is an account's: the mail leaves in the background so the answer
 * takes as long either way.
 *
 * Asking is slowed per address AND client IP: after a pair's request it waits 30 s, then
 * 60, 120 ... (up to the window), and one IP has a ceiling over all addresses; nothing is refused per
 * address alone, so a third party asking from elsewhere cannot lock the owner out. Nor can it bury
 * or void the owner's code: while a code is usable, asking again mails nothing and keeps it, and an
 * address is mailed at most PASSWORD_RESET_MAX_PER_EMAIL codes a window (which also bounds how many
 * codes, 5 tries each, can be guessed at).
 */
export class PasswordRecoveryService {
  constructor(
    private readonly ctx: AppContext,
    private readonly users: UserService,
    private readonly mailer: SystemMailer | null,
  ) {}

  get available(): boolean {
    return this.mailer !== null;
  }

  private key(email: string) {
    return `${this.ctx.env.REDIS_PREFIX}password-reset:${email}`;
  }

  private digest(email: string, code: string): string {
    return createHmac('sha256', this.ctx.env.JWT_SECRET).update(`password-reset:${email}:${code}`).digest('hex');
  }

  private mailerOrFail(): SystemMailer {
    if (!this.mailer) throw new AppError('password_recovery_not_configured', 'Password recovery by e-mail is not configured');
    return this.mailer;
  }

  /** Counts one request against `name`'s limit; past it, 429 with the seconds left in the window. */
  private async limit(name: string, max: number): Promise<void> {
    const key = `${this.ctx.env.REDIS_PREFIX}password-reset-limit:${name}`;
    const { count, retryAfterSeconds } = await countInWindow(this.ctx.redis, key, this.ctx.env.PASSWORD_RESET_WINDOW_SECONDS);
    if (count > max) throw tooMany(retryAfterSeconds);
  }

  /** One address and IP pair asks: refused (429) while its wait runs, else counted and given a longer wait. */
  private async pairRequest(email: string, ip: string): Promise<void> {
    const pair = `${this.ctx.env.REDIS_PREFIX}password-reset-pair:${email}|${ip}`;
    const waitMs = await this.ctx.redis.pttl(`${pair}:wait`);
    if (waitMs > 0) throw tooMany(Math.ceil(waitMs / 1000));
    const { count } = await countInWindow(this.ctx.redis, pair, this.ctx.env.PASSWORD_RESET_WINDOW_SECONDS);
    const seconds = Math.min(this.ctx.env.PASSWORD_RESET_WINDOW_SECONDS, RESET_PAIR_FIRST_WAIT_SECONDS * 2 ** Math.min(count - 1, 20));
    await this.ctx.redis.set(`${pair}:wait`, '1', 'EX', seconds);
  }

  async request(email: string, client: ClientInfo): Promise<{ ok: true; expires_in: number }> {
    const mailer = this.mailerOrFail();
    await this.limit(`ip:${client.ip}`, this.ctx.env.PASSWORD_RESET_MAX_PER_IP);
    await this.pairRequest(email, client.ip);
    const holders = await countLiveUsersWithEmail(this.ctx.db, email);
    if (holders > 0) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const { env } = this.ctx;
      const issued = await this.ctx.redis.eval(
        ISSUE_CODE,
        2,
        this.key(email),
        `${env.REDIS_PREFIX}password-reset-mails:${email}`,
        this.digest(email, code),
        RESET_CODE_TTL_SECONDS,
        RESET_CODE_MAX_ATTEMPTS,
        env.PASSWORD_RESET_MAX_PER_EMAIL,
        env.PASSWORD_RESET_WINDOW_SECONDS,
      );
      if (issued === 1)
        void mailer
          .send(recoveryMail(email, code))
          .catch((error: unknown) => this.ctx.log.error({ err: error }, 'password recovery mail failed'));
    }
    return { ok: true, expires_in: RESET_CODE_TTL_SECONDS };
  }

  async reset(email: string, code: string, password: string, client: ClientInfo): Promise<void> {
    this.mailerOrFail();
    await this.limit(`try-ip:${client.ip}`, this.ctx.env.PASSWORD_RESET_MAX_PER_IP * RESET_CODE_MAX_ATTEMPTS);
    const key = this.key(email);
    const stored = await this.ctx.redis.hgetall(key);
    if (!stored.hash) throw new AppError('reset_code_invalid', INVALID);
    if (Number(stored.attempts ?? 0) >= RESET_CODE_MAX_ATTEMPTS) throw new AppError('reset_code_attempts_exceeded', EXHAUSTED);
    const given = Buffer.from(this.digest(email, code), 'hex');
    const expected = Buffer.from(stored.hash, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      const attempts = await this.ctx.redis.hincrby(key, 'attempts', 1);
      if (attempts >= RESET_CODE_MAX_ATTEMPTS) throw new AppError('reset_code_attempts_exceeded', EXHAUSTED);
      throw new AppError('reset_code_invalid', INVALID);
    }
    // Single use: of two requests with the right code, only the one that deletes it goes on.
    if ((await this.ctx.redis.del(key)) !== 1) throw new AppError('reset_code_invalid', INVALID);
    // The mailbox is proof for every account of the address (the same e-mail may be a user of several tenants).
    const accounts = await liveAccountsWithEmail(this.ctx.db, email);
    for (const account of accounts) await this.users.replacePassword(account, password, 'password_recovery', 'self');
  }
}

function recoveryMail(to: string, code: string) {
  const minutes = RESET_CODE_TTL_SECONDS / 60;
  return {
    to,
    subject: `Atende: ${code} is your password recovery code / é o seu código de recuperação de senha`,
    text:
      `Your password recovery code is ${code}. It is valid for ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n\n` +
      `Seu código de recuperação de senha é ${code}. Ele vale por ${minutes} minutos. Se você não o pediu, ignore este e-mail.\n`,
  };
}

const tooMany = (retryAfterSeconds: number) =>
  new AppError('password_recovery_rate_limited', TOO_MANY, undefined, { retry_after_seconds: retryAfterSeconds });
