import { describe, expect, it } from 'vitest';
import { ProfilePasswordFormSchema } from './password';

const messages = (v: { old_password: string; password: string; confirm_password: string }) => {
  const r = ProfilePasswordFormSchema.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

// Minimum 8, at least one number, letters required, current password required, match.
describe('profile password form', () => {
  it('accepts a strong password with the current one and a matching confirmation', () => {
    expect(messages({ old_password: 'old', password: 'abcdefg1', confirm_password: 'abcdefg1' })).toEqual([]);
  });
  it('rejects short, letterless and numberless passwords', () => {
    expect(messages({ old_password: 'x', password: 'abc1', confirm_password: 'abc1' })).toEqual([
      'password: Password must have at least 8 characters',
    ]);
    expect(messages({ old_password: 'x', password: 'abcdefgh', confirm_password: 'abcdefgh' })).toEqual([
      'password: Password must contain at least one number',
    ]);
    expect(messages({ old_password: 'x', password: '12345678', confirm_password: '12345678' })).toEqual([
      'password: Password must contain letters',
    ]);
  });
  it('requires the current password and a matching confirmation', () => {
    expect(messages({ old_password: '', password: 'abcdefg1', confirm_password: 'abcdefg2' })).toEqual([
      'old_password: Current password is required',
      'confirm_password: The passwords must match',
    ]);
  });
});
