import { CHANNEL_AVAILABILITY, type ChannelAvailability } from '@atende/contract';
import { signedInAgentsWithSectors, type Db } from '@atende/db';

/** A channel as availability needs it. */
interface ChannelEntry {
  enabled: boolean;
  entrySectorId: string | null;
}

/**
 * Channel availability (Offline, Paused, Active, Online), read as a desk admin needs it:
 * - offline: the channel is disabled: nothing comes in or goes out;
 * - online: it takes messages and at least one agent who serves its entry sector is online;
 * - paused: it takes messages, agents who serve it are signed in, all of them on a pause;
 * - active: it takes messages (queues, menus and bots go on) but nobody who serves it is signed in.
 * An agent serves a sector when the sector is theirs, or when they have no sectors (they serve all);
 * a channel entering through a menu, a bot or the workspace queue is served by every agent.
 */
export async function channelAvailability(
  db: Db,
  tenantId: string,
  workspaceId: string,
  channels: readonly ChannelEntry[],
): Promise<ChannelAvailability[]> {
  if (!channels.some((c) => c.enabled)) return channels.map(() => CHANNEL_AVAILABILITY[0]);
  // Signed-in agents of the workspace with their sectors: one query for the whole list.
  const agents = await signedInAgentsWithSectors(db, tenantId, workspaceId);
  return channels.map((channel) => {
    if (!channel.enabled) return 'offline';
    const serving = agents.filter((a) => !channel.entrySectorId || a.sectors.length === 0 || a.sectors.includes(channel.entrySectorId));
    if (serving.some((a) => a.state === 'online')) return 'online';
    if (serving.some((a) => a.state === 'paused')) return 'paused';
    return 'active';
  });
}
