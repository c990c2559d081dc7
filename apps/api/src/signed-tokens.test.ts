import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { signToken, verifyToken } from './signed-tokens';

const SECRET = 'a-secret-of-the-tests-a-secret-of-the-tests';
const audience = 'atende-web';
const issuer = 'atende-api';
const Claims = z.object({ sub: z.string(), aud: z.string(), iss: z.string() });

describe('signed tokens', () => {
  it('verifies its own tokens and those jsonwebtoken signed with the secret as a string (issued before)', () => {
    const token = signToken({ sub: 'u' }, SECRET, { audience, issuer, expiresIn: 60 });
    expect(verifyToken(token, SECRET, Claims, { audience, issuer })).toMatchObject({
      ok: true,
      claims: { sub: 'u', aud: audience, iss: issuer },
    });
    const before = jwt.sign({ sub: 'v' }, SECRET, { algorithm: 'HS256', audience, issuer, expiresIn: 60 });
    expect(verifyToken(before, SECRET, Claims, { audience, issuer })).toMatchObject({ ok: true, claims: { sub: 'v' } });
  });

  it('refuses another secret, audience or issuer, an expired token, alg none and what is not a JWT', () => {
    const token = signToken({ sub: 'u' }, SECRET, { audience, issuer, expiresIn: 60 });
    expect(verifyToken(token, `${SECRET}x`, Claims, { audience, issuer })).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken(token, SECRET, Claims, { audience: 'atende-livechat', issuer })).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyToken(token, SECRET, Claims, { audience, issuer: 'someone' })).toEqual({ ok: false, reason: 'invalid' });
    const expired = jwt.sign({ sub: 'u', exp: Math.floor(Date.now() / 1000) - 10 }, SECRET, { algorithm: 'HS256', audience, issuer });
    expect(verifyToken(expired, SECRET, Claims, { audience, issuer })).toEqual({ ok: false, reason: 'expired' });
    const none = jwt.sign({ sub: 'u' }, '', { algorithm: 'none', audience, issuer });
    expect(verifyToken(none, SECRET, Claims, { audience, issuer })).toEqual({ ok: false, reason: 'invalid' });
    // Well signed, but not the claims this kind of token carries.
    expect(verifyToken(token, SECRET, z.object({ sid: z.uuid() }), { audience, issuer })).toEqual({ ok: false, reason: 'invalid' });
    const [head, body] = token.split('.');
    for (const bad of [
      'bench-channel-token',
      '',
      'a.b',
      `${head}.${body}.`,
      `${head}.${body}.sig.extra`,
      `${token} `,
      `${head}.${body}!.x`,
    ]) {
      expect(verifyToken(bad, SECRET, Claims, { audience, issuer }), bad).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});
