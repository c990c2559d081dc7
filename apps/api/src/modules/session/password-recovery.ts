import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError } from '@atende/contract';
import { countInWindow } from '../../rate-window';
import type { AppContext } from '../../context';
import type { UserService } from '../users/service';
import type { ClientInfo } from './service';
import type { SystemMailer } from './system-mail';

export const RESET_CODE_TTL_SECONDS = 15 * 60;
/** Wrong tries one code takes before it is void. */
export const RESET_CODE_MAX_ATTEMPTS = 5;

const INVALID = 'The code is wrong or has expired';
const EXHAUSTED = 'Too many wrong codes: ask for a new code';

/**
 * Forgot password by e-mail code (issue 16 item 11). The code is kept in Redis as an HMAC (never in
 * clear), for 15 minutes, with a count of wrong tries; a right one is taken (single use). Asking is
 * limited per address and per client IP, and the answer never says whether the address is an
 * account's: the mail leaves in the background so the answer takes as long either way.
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
    if (!this.mailer) throw new AppError('not_found', 'Password recovery by e-mail is not configured');
    return this.mailer;
  }

  /** Counts one request against `name`'s limit; past it, 429 with the seconds left in the window. */
  private async limit(name: string, max: number): Promise<void> {
    const key = `${this.ctx.env.REDIS_PREFIX}password-reset-limit:${name}`;
    const { count, retryAfterSeconds } = await countInWindow(this.ctx.redis, key, this.ctx.env.PASSWORD_RESET_WINDOW_SECONDS);
    if (count > max) throw new AppError('rate_limited', 'Too many password recovery requests, try again later', undefined, { retry_after_seconds: retryAfterSeconds });
  }

  async request(email: string, client: ClientInfo): Promise<{ ok: true; expires_in: number }> {
    const mailer = this.mailerOrFail();
    await this.limit(`ip:${client.ip}`, this.ctx.env.PASSWORD_RESET_MAX_PER_IP);
    await this.limit(`email:${email}`, this.ctx.env.PASSWORD_RESET_MAX_PER_EMAIL);
    const holders = await this.ctx.db.user.count({ where: { email, deletedAt: null } });
    if (holders > 0) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      // A new code replaces the previous one (and its tries).
      await this.ctx.redis.multi().del(this.key(email)).hset(this.key(email), { hash: this.digest(email, code), attempts: '0' }).expire(this.key(email), RESET_CODE_TTL_SECONDS).exec();
      void mailer.send(recoveryMail(email, code)).catch((error: unknown) => this.ctx.log.error({ err: error }, 'password recovery mail failed'));
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
    const accounts = await this.ctx.db.user.findMany({ where: { email, deletedAt: null }, select: { id: true, tenantId: true } });
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
