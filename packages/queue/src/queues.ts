import { queues, type ChannelDeliveryJob, type MaintenanceJob, type QueueName } from '@atende/contract';
import { Queue, type ConnectionOptions, type DefaultJobOptions } from 'bullmq';

/** BullMQ key prefix under the app's Redis prefix (e.g. atende:bull:maintenance:...). */
export const bullPrefix = (redisPrefix: string) => `${redisPrefix}bull`;

export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const satisfies DefaultJobOptions;

export function maintenanceQueue(connection: ConnectionOptions, redisPrefix: string): Queue<MaintenanceJob> {
  return new Queue<MaintenanceJob>(queues.maintenance.name, {
    connection,
    prefix: bullPrefix(redisPrefix),
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  });
}

export function channelDeliveryQueue(connection: ConnectionOptions, redisPrefix: string): Queue<ChannelDeliveryJob> {
  return new Queue<ChannelDeliveryJob>(queues.channelDelivery.name, {
    connection,
    prefix: bullPrefix(redisPrefix),
    defaultJobOptions: DEFAULT_JOB_OPTIONS,
  });
}

/**
 * One Queue per contract queue name, made on first use: how the outbox dispatcher reaches any
 * queue a row names.
 */
export class QueueRegistry {
  private readonly open = new Map<QueueName, Queue>();

  constructor(
    private readonly connection: ConnectionOptions,
    private readonly redisPrefix: string,
  ) {}

  get(name: QueueName): Queue {
    let queue = this.open.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.connection,
        prefix: bullPrefix(this.redisPrefix),
        defaultJobOptions: DEFAULT_JOB_OPTIONS,
      });
      this.open.set(name, queue);
    }
    return queue;
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((q) => q.close()));
    this.open.clear();
  }
}
