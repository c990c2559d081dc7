import { z } from 'zod';

/** Queue names and payloads shared by the api (producer) and the worker (consumer). */
export const queues = {
  maintenance: {
    name: 'maintenance',
    payload: z.discriminatedUnion('kind', [z.object({ kind: z.literal('expire-sessions') })]),
  },
} as const;
export type MaintenanceJob = z.infer<typeof queues.maintenance.payload>;
