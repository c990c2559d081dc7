/**
 * A broadcast campaign's sends are recorded as closed conversations (packages/db campaign-broadcast.ts),
 * in the transaction that writes their outcomes.
 */
export { closeBroadcastSends, type BroadcastCampaign, type SentSubscriber } from '@atende/db';
