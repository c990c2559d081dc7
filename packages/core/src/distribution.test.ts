import { describe, expect, it } from 'vitest';
import { acceptSessionRefusal, agentCapacity, isAutoDistribution } from './distribution';

describe('distribution rules', () => {
  it('turns auto distribution on for round_robin and fifo only', () => {
    expect(isAutoDistribution('on_demand')).toBe(false);
    expect(isAutoDistribution('round_robin')).toBe(true);
    expect(isAutoDistribution('fifo')).toBe(true);
  });
  it('caps capacity by both the workspace limit and the tenant slots', () => {
    expect(agentCapacity(10, 10)).toBe(10);
    expect(agentCapacity(3, 10)).toBe(3);
    expect(agentCapacity(12, 10)).toBe(10);
  });
  it("refuses accept-session with the spec's messages", () => {
    const base = { mode: 'on_demand' as const, activeCount: 0, capacity: 2, waiting: 1, paused: false };
    expect(acceptSessionRefusal(base)).toBeNull();
    expect(acceptSessionRefusal({ ...base, mode: 'fifo' })?.message).toBe(
      'Você não pode solicitar atendimentos enquanto a distribuição automática estiver habilitada',
    );
    expect(acceptSessionRefusal({ ...base, activeCount: 2 })?.message).toBe(
      'Você já atingiu a quantidade máxima de atendimentos simultâneos (2)',
    );
    expect(acceptSessionRefusal({ ...base, waiting: 0 })?.code).toBe('nobody_waiting');
    expect(acceptSessionRefusal({ ...base, paused: true })?.code).toBe('not_online');
  });
});
