export { RealtimeOutbox, realtimeOutboxStream } from './outbox';
export { maintenanceQueue, bullPrefix, DEFAULT_JOB_OPTIONS } from './queues';
