import { rooms } from '@atende/contract';
import type { ConversationDeps } from '@atende/conversations';
import type { Logger } from 'pino';

type Realtime = ConversationDeps['realtime'];
type Status = 'in_progress' | 'done';
interface Counters {
  imported: number;
  ignored: number;
  imported_with_error: number;
}
const NONE: Counters = { imported: 0, ignored: 0, imported_with_error: 0 };

/**
 * An import's progress for open subscriber screens (update-campaign-tasks): rows read so far and the
 * file's row count, estimated from the bytes read until the whole file is read. Sent when a row is
 * read and the last event is older than `everyMs`, and by a timer while no row arrives (the final
 * INSERT), so screens hear from the import at least once a second.
 */
export class ImportProgress {
  private rowsDone = 0;
  private parsedRows = 0;
  private parsedBytes = 0;
  private exactTotal: number | null = null;
  private last = 0;
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly realtime: Realtime,
    private readonly target: { tenantId: string; campaignId: string; fileBytes: number },
    private readonly log: Logger,
    private readonly everyMs = 400,
  ) {}

  start(): void {
    this.last = performance.now();
    this.timer = setInterval(() => this.tick(), this.everyMs);
  }

  /**
   * Called for every row read (cheap unless an event is due). The parser runs ahead of the rows
   * handled, so the estimate takes its own rows-per-byte: `parsedRows` rows in `parsedBytes` bytes.
   */
  read(rows: number, parsedRows: number, parsedBytes: number): void {
    this.rowsDone = rows;
    this.parsedRows = parsedRows;
    this.parsedBytes = parsedBytes;
    if (performance.now() - this.last >= this.everyMs) this.tick();
  }

  /** The whole file is read: the total is now exact. */
  readAll(rows: number): void {
    this.rowsDone = rows;
    this.exactTotal = rows;
    this.tick();
  }

  /** No more in_progress events; waits for those already sent. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sending;
  }

  async emit(status: Status, counters: Counters, errorMessage: string | null): Promise<void> {
    const total = this.exactTotal ?? this.estimatedTotal();
    await this.realtime.emit(rooms.campaigns(this.target.tenantId), 'update-campaign-tasks', {
      tenant_uuid: this.target.tenantId,
      campaign_uuid: this.target.campaignId,
      status,
      ...counters,
      rows_done: this.rowsDone,
      rows_total: total,
      rows_total_estimated: this.exactTotal === null,
      error_message: errorMessage,
    });
  }

  private estimatedTotal(): number | null {
    if (this.parsedBytes <= 0 || this.parsedRows <= 0 || this.target.fileBytes <= 0) return null;
    return Math.max(this.rowsDone, Math.round((this.parsedRows * this.target.fileBytes) / this.parsedBytes));
  }

  private tick(): void {
    if (!this.timer) return;
    this.last = performance.now();
    // One after the other, so screens see the counts in the order they were read.
    this.sending = this.sending
      .then(() => this.emit('in_progress', NONE, null))
      .then(
        () => undefined,
        (err: unknown) => this.log.warn({ err }, 'import progress not sent'),
      );
  }
}
