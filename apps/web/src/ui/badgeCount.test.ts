import { describe, expect, it } from 'vitest';
import { badgeCount, fitsCircle } from './badgeCount';

describe('badge counts', () => {
  it('shows up to two digits, then 99+', () => {
    expect([0, 7, 51, 99, 100, 1234].map(badgeCount)).toEqual(['0', '7', '51', '99', '99+', '99+']);
  });
  it('keeps the round shape for one digit only', () => {
    expect([1, 9, 10, 71].map(fitsCircle)).toEqual([true, true, false, false]);
  });
});
