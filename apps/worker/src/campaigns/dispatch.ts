import { ChannelDeliveryError, decryptCredentials, type ChannelAdapter, type ChannelTarget } from '@atende/channels';
import { queues, type Template } from '@atende/contract';
import { announceCampaign, presentTemplate, settleCampaign, subscriberMessage } from '@atende/conversations';
import { channelKind, missingParameter, SUBSCRIBER_REFUSALS, templateParameterCount } from '@atende/core';
import {
  campaignRunNumber,
  campaignRunState,
  campaignWithChannel,
  claimSubscriberBatch,
  markCampaignRunning,
  markSubscribersSending,
  releaseDispatchLease,
  settleInterruptedSends,
  takeDispatchLease,
  templateRowById,
  unclaimSubscribers,
  withTransaction,
  writeSendOutcomes,
  type Db,
  type SendOutcome,
} from '@atende/db';
import { closeBroadcastSends, type BroadcastCampaign } from './broadcast';
import type { RateLimiter, RealtimeOutbox } from '@atende/queue';
import type { Logger } from 'pino';

export interface DispatchDeps {
  db: Db;
  realtime: Pick<RealtimeOutbox, 'emit'>;
  adapters: Map<string, ChannelAdapter>;
  secretsKey: Buffer;
  limiter: RateLimiter;
  /** This worker process, as the holder of a campaign's sending lease. */
  owner: string;
  /** Sends per second per channel (0: no limit). */
  ratePerSecond: number;
  log: Logger;
  leaseMs?: number;
  /** Subscribers claimed (and their outcomes written) per statement; with a rate limit, at most one second's worth. */
  batchSize?: number;
  /** Sends in flight at once. */
  concurrency?: number;
}

/** The provider's template message for one subscriber (kept in @atende/conversations: the api's test send builds it too). */
export { subscriberMessage };

export type DispatchResult = 'done' | 'stopped' | 'superseded';
const ERROR_MAX = 500;
const TRANSIENT_TRIES = 3;

export type Claimed = { id: string; phoneNumber: string; parameters: string[] };
/**
 * One send's outcome, written with the others that came in meanwhile. 'unknown': the request may
 * have reached the provider and its answer was lost (ChannelDeliveryError.outcomeUnknown).
 */
type Outcome = SendOutcome;

/** Why a row is 'unknown' when the dispatcher that was sending it died before writing its outcome. */
export const UNKNOWN_AFTER_CRASH = 'The sending stopped while this message was on its way: the provider may have received it';

/**
 * Outcomes in one statement; only rows claimed ('scheduled': refused before any request) or being
 * sent ('sending') change, or rows a restart turned to 'unknown' meanwhile (the late answer says
 * what happened). A send starts its receipts afresh (a
 * subscriber sent again after an error has no receipts of the old message). A broadcast campaign's
 * sends are recorded as closed conversations in the same transaction, for exactly the rows this
 * write turned to sent (broadcast.ts).
 */
async function writeOutcomes(db: Db, outcomes: Outcome[], broadcast: BroadcastCampaign | null): Promise<void> {
  if (outcomes.length === 0) return;
  if (!broadcast) {
    await writeSendOutcomes(db, outcomes);
    return;
  }
  await withTransaction(db, async (tx) => {
    const written = await writeSendOutcomes(tx, outcomes);
    await closeBroadcastSends(
      tx,
      broadcast,
      written.filter((w) => w.state === 'sent'),
    );
  });
}

/** Campaign screens hear of a running campaign's progress at most this often (and at its start and end). */
const ANNOUNCE_EVERY_MS = 1000;
/**
 * Tokens taken from the shared bucket per Redis round trip: about 1/10 s of the rate, at most this
 * many (held here at most that long, so the rate seen by the provider stays the bucket's).
 */
const TOKEN_CHUNK_MAX = 64;

/** A run of a campaign this dispatcher holds the lease of: what sending it needs. */
export interface Run {
  campaign: { id: string; tenantId: string; workspaceId: string; channelId: string; mode: string; channel: { type: string } };
  template: Template;
  adapter: ChannelAdapter | undefined;
  channel: ChannelTarget;
  /** The rate limiter's key: the channel's number. */
  bucket: string;
  /** The job's run number. */
  runNumber: number;
  /** Renews the lease; false when the run was stopped, restarted or taken over. */
  lease(): Promise<boolean>;
  release(state: 'stopped' | 'running' | 'sent', extra?: { desiredState?: string; finishedAt?: Date }): Promise<unknown>;
}

/**
 * Takes the campaign's sending lease for the job's run and loads what sending needs. Of the
 * subscribers a dead dispatcher had claimed, those it had not started sending go back to pending;
 * those whose request it had started ('sending') may have reached the provider, which would send a
 * repeat as a second message: they become 'unknown' (never sent again automatically; receipts.ts
 * reconciles them, the manager may resend them knowingly).
 * 'superseded' when the run is no longer the campaign's running one; throws while another worker
 * holds the lease (BullMQ retries once it may have lapsed).
 */
export async function openRun(deps: DispatchDeps, raw: unknown): Promise<Run | 'superseded'> {
  const job = queues.campaignDispatch.payload.parse(raw);
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? 15_000;
  const lease = () =>
    takeDispatchLease(db, { campaignId: job.campaign_uuid, tenantId: job.tenant_uuid, run: job.run, owner: deps.owner, leaseMs });

  if (!(await lease())) {
    const campaign = await campaignRunState(db, job.campaign_uuid);
    if (!campaign || campaign.deletedAt || campaign.runNumber !== job.run || campaign.desiredState !== 'running') return 'superseded';
    throw new Error('campaign is being sent by another worker');
  }
  const release = (state: 'stopped' | 'running' | 'sent', extra: { desiredState?: string; finishedAt?: Date } = {}) =>
    releaseDispatchLease(db, job.campaign_uuid, deps.owner, state, extra);

  const campaign = await campaignWithChannel(db, job.campaign_uuid);
  await markCampaignRunning(db, campaign.id, campaign.startedAt ?? new Date());
  await settleInterruptedSends(db, campaign.id, UNKNOWN_AFTER_CRASH);
  await announceCampaign(deps, campaign.id);

  const template = presentTemplate(await templateRowById(db, campaign.templateId));
  const channel = {
    uuid: campaign.channel.id,
    type: campaign.channel.type,
    config: campaign.channel.config,
    credentials: campaign.channel.credentialsEncrypted ? decryptCredentials(campaign.channel.credentialsEncrypted, deps.secretsKey) : null,
  };
  return {
    campaign,
    template,
    adapter: deps.adapters.get(channelKind(campaign.channel.type)),
    channel,
    bucket: `channel:${campaign.channel.id}`,
    runNumber: job.run,
    lease,
    release,
  };
}

/**
 * Claims up to `size` pending subscribers in one statement (pending → scheduled); a contact put on one
 * of the campaign's DND lists since the import (by its number with or without the ninth digit, as
 * WhatsApp may report it) becomes 'dnd' here instead of being sent to.
 */
export function claimBatch(db: Db, campaignId: string, size: number): Promise<(Claimed & { state: string })[]> {
  return claimSubscriberBatch(db, campaignId, size);
}

/**
 * Group commit: `write(item)` resolves once a statement holding the item is done. One statement at a
 * time; items that come while one runs go together in the next, so the rows in between are at most
 * those of one round trip, whatever the concurrency.
 */
function groupWriter<T, R>(flush: (items: T[]) => Promise<R[]>) {
  let waiting: { item: T; done: (result: R) => void; fail: (error: unknown) => void }[] = [];
  let running = false;
  async function drain() {
    running = true;
    while (waiting.length) {
      const group = waiting;
      waiting = [];
      try {
        const results = await flush(group.map((w) => w.item));
        group.forEach((w, i) => w.done(results[i]!));
      } catch (error) {
        for (const w of group) w.fail(error);
      }
    }
    running = false;
  }
  return {
    write: (item: T) =>
      new Promise<R>((done, fail) => {
        waiting.push({ item, done, fail });
        if (!running) void drain();
      }),
  };
}

/** A stopped (or restarted) run: what it claimed goes back to pending, and it lets go of the lease if still its run's. */
export async function stopRun(deps: Pick<DispatchDeps, 'db' | 'realtime'>, run: Run): Promise<'stopped'> {
  await unclaimSubscribers(deps.db, run.campaign.id);
  if ((await campaignRunNumber(deps.db, run.campaign.id)) === run.runNumber) await run.release('stopped');
  await announceCampaign(deps, run.campaign.id);
  return 'stopped';
}

/**
 * Sends one run of a running campaign (queue campaign-dispatch).
 *
 * At most once, against providers that do not deduplicate (WhatsApp Cloud API,
 * 360dialog and Twilio document no idempotency key; a repeated request is a second paid message).
 * One dispatcher at a time holds the campaign's lease (renewed before every claim; a run that lost
 * it, was stopped or restarted, stops there and sends nothing more). It claims a batch of pending
 * subscribers in one statement (pending → scheduled, FOR UPDATE SKIP LOCKED, DND contacts → dnd)
 * and sends them with bounded concurrency. Before a request is written its row is recorded as
 * 'sending' (scheduled → sending, the marks of concurrent senders grouped in one statement), and
 * its outcome is written as soon as the previous write is done (sending → sent, error or unknown),
 * so what a crash leaves undecided is only the requests in flight, never a batch. A restart puts
 * rows still 'scheduled' back to pending (nothing of theirs left) and turns rows still 'sending'
 * into 'unknown': never sent again automatically; reconciled from the provider's receipts
 * (receipts.ts, by biz_opaque_callback_data) or resent by the manager knowingly. A send whose answer
 * was lost (time-out, dropped connection, gateway 502/504) is 'unknown' too and is not retried;
 * only failures that prove the provider took nothing (not reached, or its own error answer) are.
 * fault.test.ts kills a worker mid-send and counts each phone's messages at the provider.
 *
 * Speed: one claim per batch, marks and outcome writes grouped (one statement per
 * round trip whatever the concurrency), sends in flight at once over the outbound client's
 * keep-alive connections, rate-limit tokens taken in chunks, and progress announced at most once a
 * second. With a rate limit a batch is about one second's worth, so a stop still takes effect within
 * about a second.
 */
export async function dispatchCampaign(deps: DispatchDeps, raw: unknown): Promise<DispatchResult> {
  const run = await openRun(deps, raw);
  if (run === 'superseded') return run;
  const { db } = deps;
  const { campaign, template, adapter, channel, bucket, lease } = run;
  const rate = deps.ratePerSecond;
  const batchSize = rate > 0 ? Math.max(1, Math.min(deps.batchSize ?? 500, Math.ceil(rate))) : (deps.batchSize ?? 500);
  const concurrency = deps.concurrency ?? 32;
  let announcedAt = Date.now();

  // Tokens taken from the shared bucket and not yet spent; one Redis call at a time refills them.
  let tokens = 0;
  let refill: Promise<void> | null = null;
  const chunk = Math.max(1, Math.min(TOKEN_CHUNK_MAX, Math.ceil(rate / 10)));
  async function token() {
    if (rate <= 0) return;
    while (tokens <= 0) {
      refill ??= deps.limiter
        .takeUpTo(bucket, rate, chunk)
        .then((n) => void (tokens += n))
        .finally(() => (refill = null));
      await refill;
    }
    tokens--;
  }

  const needed = templateParameterCount(template.config.components);
  // 'Fechar conversação após envio': each send is recorded as a closed conversation.
  const broadcast: BroadcastCampaign | null =
    campaign.mode === 'broadcast'
      ? { id: campaign.id, tenantId: campaign.tenantId, workspaceId: campaign.workspaceId, channelId: campaign.channelId, template }
      : null;
  /** The subscriber's outcome; null when the row was no longer claimed when its send was to start. */
  async function send(subscriber: Claimed): Promise<Outcome | null> {
    const failed = (reason: string): Outcome => ({
      id: subscriber.id,
      state: 'error',
      externalId: null,
      errorMessage: reason.slice(0, ERROR_MAX),
      at: new Date(),
    });
    if (!adapter) return failed(`Channel type ${campaign.channel.type} cannot send templates`);
    // Checked again here, whatever put the row back to pending (the screen checks
    // too, but not a change made elsewhere or a template edited since): no parameter goes out empty.
    const missing = missingParameter(subscriber.parameters, needed);
    if (missing !== null) return failed(SUBSCRIBER_REFUSALS.parameter(missing));
    const message = subscriberMessage(template, subscriber, campaign.id);
    for (let attempt = 1; ; attempt++) {
      await token();
      // Recorded as 'sending' right before the first request is written: from here on a crash leaves it 'unknown'.
      if (attempt === 1 && !(await marks.write(subscriber.id))) return null;
      try {
        const { externalId } = await adapter.send(message, channel);
        return { id: subscriber.id, state: 'sent', externalId, errorMessage: null, at: new Date() };
      } catch (error) {
        // An unexpected error may come after the request was written: its outcome is unknown too.
        const delivery =
          error instanceof ChannelDeliveryError
            ? error
            : new ChannelDeliveryError('transient', 'Send failed: internal error', undefined, { outcomeUnknown: true });
        if (delivery.outcomeUnknown)
          return {
            id: subscriber.id,
            state: 'unknown',
            externalId: null,
            errorMessage: delivery.message.slice(0, ERROR_MAX),
            at: new Date(),
          };
        if (delivery.httpStatus === 429 || /130429|rate limit/i.test(delivery.message)) await deps.limiter.slowDown(bucket);
        if (delivery.kind === 'permanent' || attempt >= TRANSIENT_TRIES) return failed(delivery.message);
        await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
      }
    }
  }

  const announceProgress = async () => {
    if (Date.now() - announcedAt < ANNOUNCE_EVERY_MS) return;
    announcedAt = Date.now();
    await announceCampaign(deps, campaign.id);
  };

  // A pipeline: the next batch is claimed while the current one is still being sent; marks and
  // outcomes are written in groups (one statement in flight of each, taking all that came meanwhile).
  const queue: Claimed[] = [];
  // Set inside the pipeline's closures (`as`, so that TypeScript does not narrow them to null).
  let end = null as 'done' | 'stopped' | null;
  let failure = null as { error: unknown } | null;
  let claiming: Promise<void> | null = null;
  const fail = (error: unknown) => void (failure ??= { error });
  const marks = groupWriter<string, boolean>(async (ids) => {
    const ok = new Set(await markSubscribersSending(db, ids));
    return ids.map((id) => ok.has(id));
  });
  const outcomes = groupWriter<Outcome, void>(async (batch) => {
    await writeOutcomes(db, batch, broadcast);
    await announceProgress();
    return batch.map(() => undefined);
  });

  async function claimNext(): Promise<void> {
    if (!(await lease())) {
      // Stopped (or restarted as a new run): what is claimed and not yet sent is not sent.
      end = 'stopped';
      queue.length = 0;
      return;
    }
    const claimed = await claimBatch(db, campaign.id, batchSize);
    if (claimed.length === 0) end = 'done';
    else if (!end) queue.push(...claimed.filter((s) => s.state === 'scheduled'));
  }
  const written: Promise<void>[] = [];
  async function sender(): Promise<void> {
    while (!failure) {
      if (!end && !claiming && queue.length <= batchSize / 2) {
        claiming = claimNext()
          .catch(fail)
          .finally(() => (claiming = null));
      }
      const subscriber = queue.shift();
      if (!subscriber) {
        if (end || !claiming) return;
        await claiming;
        continue;
      }
      const outcome = await send(subscriber).catch((error: unknown) => (fail(error), null));
      if (outcome) written.push(outcomes.write(outcome).catch(fail));
    }
  }

  await Promise.all(Array.from({ length: concurrency }, sender));
  await claiming;
  await Promise.all(written);
  if (failure) throw failure.error;
  if (end === 'done') {
    // A run that reached every subscriber ends in a final state, not 'stopped' with
    // Start on: 'sent' while receipts come in, settled at once when none is awaited (all refused, DND).
    await run.release('sent', { desiredState: 'sent', finishedAt: new Date() });
    await settleCampaign(db, campaign.id);
    await announceCampaign(deps, campaign.id);
    return 'done';
  }
  return stopRun(deps, run);
}
