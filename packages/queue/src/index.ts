export { RealtimeOutbox, realtimeOutboxStream } from './outbox';
export { maintenanceQueue, channelDeliveryQueue, QueueRegistry, bullPrefix, DEFAULT_JOB_OPTIONS } from './queues';
export { RateLimiter } from './rate-limit';
