import { queues, type MaintenanceJob } from '@atende/contract';
import { Queue, type ConnectionOptions } from 'bullmq';

/** BullMQ key prefix under the app's Redis prefix (e.g. atende:bull:maintenance:...). */
export const bullPrefix = (redisPrefix: string) => `${redisPrefix}bull`;

export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

export function maintenanceQueue(connection: ConnectionOptions, redisPrefix: string): Queue<MaintenanceJob> {
  return new Queue<MaintenanceJob>(queues.maintenance.name, {
    connection,
    prefix: bullPrefix(redisPrefix),
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  });
}
