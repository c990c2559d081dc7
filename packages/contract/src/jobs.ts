import { z } from 'zod';
import { Uuid } from './common';

/** Queue names and payloads shared by the api (producer) and the worker (consumer). */
export const queues = {
  maintenance: {
    name: 'maintenance',
    payload: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('expire-sessions') }),
      z.object({ kind: z.literal('user-forced-offline'), tenant_uuid: Uuid, user_uuid: Uuid }),
    ]),
  },
} as const;
export type MaintenanceJob = z.infer<typeof queues.maintenance.payload>;
