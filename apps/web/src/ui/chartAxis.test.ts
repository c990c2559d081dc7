import { describe, expect, it } from 'vitest';
import { axisTicks, axisTop } from './chartAxis';

describe('bar chart value axis', () => {
  it('tops the axis at the next 1, 2 or 5 × 10^k, never below the largest bar', () => {
    expect([0, 1, 2, 3, 7, 10, 11, 99, 100, 101, 240, 5001].map(axisTop)).toEqual([1, 1, 2, 5, 10, 10, 20, 100, 100, 200, 500, 10000]);
  });

  it('marks the top, the half when it is whole, and zero', () => {
    expect(axisTicks(1)).toEqual([1, 0]);
    expect(axisTicks(5)).toEqual([5, 0]);
    expect(axisTicks(20)).toEqual([20, 10, 0]);
    expect(axisTicks(500)).toEqual([500, 250, 0]);
  });
});
