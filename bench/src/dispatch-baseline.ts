// Bench only: campaign sending as it was before the pipelined dispatcher (batches claimed and sent one after
// the other, an update per send, an event per batch, a Redis round trip per token), kept so that
// `pnpm bench campaigns` measures both on the same machine in the same run. It starts and stops a
// run as the product does (openRun, claimBatch, stopRun). Not used by the product.
import { ChannelDeliveryError } from '@atende/channels';
import { announceCampaign } from '@atende/conversations';
import {
  claimBatch,
  openRun,
  stopRun,
  subscriberMessage,
  type Claimed,
  type DispatchDeps,
  type DispatchResult,
} from '../../apps/worker/src/campaigns/dispatch';

const ERROR_MAX = 500;
const TRANSIENT_TRIES = 3;

async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

export async function dispatchCampaignBaseline(deps: DispatchDeps, raw: unknown): Promise<DispatchResult> {
  const run = await openRun(deps, raw);
  if (run === 'superseded') return run;
  const { db } = deps;
  const { campaign, template, adapter, channel, bucket } = run;
  const fail = (id: string, reason: string) =>
    db.campaignSubscriber.updateMany({
      where: { id, state: 'scheduled' },
      data: { state: 'error', errorMessage: reason.slice(0, ERROR_MAX) },
    });

  async function send(subscriber: Claimed) {
    if (!adapter) return void (await fail(subscriber.id, `Channel type ${campaign.channel.type} cannot send templates`));
    const message = subscriberMessage(template, subscriber, campaign.id);
    for (let attempt = 1; ; attempt++) {
      await deps.limiter.take(bucket, deps.ratePerSecond);
      try {
        const { externalId } = await adapter.send(message, channel);
        await db.campaignSubscriber.updateMany({
          where: { id: subscriber.id, state: 'scheduled' },
          data: { state: 'sent', sentAt: new Date(), externalId, errorMessage: null },
        });
        return;
      } catch (error) {
        const delivery =
          error instanceof ChannelDeliveryError ? error : new ChannelDeliveryError('transient', 'Send failed: internal error');
        if (delivery.httpStatus === 429 || /130429|rate limit/i.test(delivery.message)) await deps.limiter.slowDown(bucket);
        if (delivery.kind === 'permanent' || attempt >= TRANSIENT_TRIES) return void (await fail(subscriber.id, delivery.message));
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  }

  for (;;) {
    if (!(await run.lease())) return stopRun(deps, run);
    const claimed = await claimBatch(db, campaign.id, deps.batchSize ?? 50);
    if (claimed.length === 0) {
      await run.release('stopped', { desiredState: 'stopped' });
      await announceCampaign(deps, campaign.id);
      return 'done';
    }
    await pool(
      claimed.filter((s) => s.state === 'scheduled'),
      deps.concurrency ?? 8,
      send,
    );
    await announceCampaign(deps, campaign.id);
  }
}
