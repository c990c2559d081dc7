import type { Logger } from 'pino';
import { dispatchOutboxBatch, DEFAULT_BATCH_SIZE, type OutboxDispatchDeps } from './dispatcher';
import { listenForOutboxRows, type OutboxListener } from './listener';

export interface OutboxDispatcherOptions extends OutboxDispatchDeps {
  /** How often to look for rows when nothing woke us (OUTBOX_POLL_MS). */
  pollMs: number;
  /** When set, LISTEN for the insert trigger's notifications on this database for lower latency. */
  listenUrl?: string;
}

/**
 * Runs dispatchOutboxBatch in a loop: again at once while batches come back full, otherwise after
 * pollMs or as soon as a NOTIFY says rows were committed. stop() lets the batch in hand finish.
 */
export class OutboxDispatcher {
  private stopping = false;
  private woken = false;
  private wakeSleeper: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private listener: OutboxListener | null = null;
  private readonly log: Logger;

  constructor(private readonly options: OutboxDispatcherOptions) {
    this.log = options.log;
  }

  start(): void {
    if (this.running) return;
    if (this.options.listenUrl) this.listener = listenForOutboxRows(this.options.listenUrl, () => this.wake(), this.log);
    this.running = this.run();
  }

  /** Look for rows now (called on NOTIFY). */
  wake(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.listener?.close();
    await this.running;
    this.running = null;
  }

  private async run(): Promise<void> {
    const batchSize = this.options.batchSize ?? DEFAULT_BATCH_SIZE;
    while (!this.stopping) {
      this.woken = false;
      let full = false;
      try {
        const result = await dispatchOutboxBatch(this.options);
        full = result.dispatched + result.invalid >= batchSize;
        if (result.dispatched + result.invalid > 0) this.log.debug(result, 'outbox batch dispatched');
      } catch (err) {
        this.log.error({ err }, 'outbox dispatch failed; retrying at the next poll');
      }
      if (!full && !this.woken && !this.stopping) await this.sleep(this.options.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.wakeSleeper = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      this.wakeSleeper = finish;
    });
  }
}
