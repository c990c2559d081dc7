import type { DeliveryMode } from '@atende/contract';

/** Auto distribution is on for round_robin and fifo, off for on_demand. */
export const isAutoDistribution = (mode: DeliveryMode): boolean => mode !== 'on_demand';

/** How many conversations an agent may hold at once: the workspace limit within the tenant's slots. */
export const agentCapacity = (maxConversationPerUser: number, agentMaxSlots: number): number =>
  Math.max(0, Math.min(maxConversationPerUser, agentMaxSlots));

export type AcceptRefusal = { code: 'auto_distribution' | 'max_reached' | 'nobody_waiting' | 'not_online'; message: string };

/** When "accept session" is refused, and the message shown. */
export function acceptSessionRefusal(input: {
  mode: DeliveryMode;
  activeCount: number;
  capacity: number;
  waiting: number;
  paused: boolean;
}): AcceptRefusal | null {
  if (isAutoDistribution(input.mode)) {
    return {
      code: 'auto_distribution',
      message: 'Você não pode solicitar atendimentos enquanto a distribuição automática estiver habilitada',
    };
  }
  if (input.activeCount >= input.capacity) {
    return { code: 'max_reached', message: `Você já atingiu a quantidade máxima de atendimentos simultâneos (${input.capacity})` };
  }
  if (input.paused) return { code: 'not_online', message: 'You cannot accept sessions while paused' };
  if (input.waiting <= 0) return { code: 'nobody_waiting', message: 'There are no sessions waiting' };
  return null;
}
