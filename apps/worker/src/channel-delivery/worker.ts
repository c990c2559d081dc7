import { queues, type ChannelDeliveryJob } from '@atende/contract';
import { bullPrefix } from '@atende/queue';
import { Worker, type ConnectionOptions } from 'bullmq';
import { deliverMessage, type ChannelDeliveryDeps, type DeliveryResult } from './processor';

export interface ChannelDeliveryWorkerOptions {
  connection: ConnectionOptions;
  redisPrefix: string;
  concurrency: number;
}

/** The BullMQ consumer of channel-delivery; retries and backoff come from the job's options. */
export function createChannelDeliveryWorker(
  deps: ChannelDeliveryDeps,
  options: ChannelDeliveryWorkerOptions,
): Worker<ChannelDeliveryJob, DeliveryResult> {
  return new Worker<ChannelDeliveryJob, DeliveryResult>(
    queues.channelDelivery.name,
    (job) => deliverMessage(deps, job.data, { finalAttempt: job.attemptsMade + 1 >= (job.opts.attempts ?? 1) }),
    { connection: options.connection, prefix: bullPrefix(options.redisPrefix), concurrency: options.concurrency },
  );
}
